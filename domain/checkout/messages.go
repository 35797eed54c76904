package checkout

// Refusals of the basket's lines and Pay's stock, named so that the
// funnel's pages can say them in their language.
const (
	MsgProductUnavailable = "Line %d: this product is no longer sold." // line number
	MsgStockShort         = "Line %d: only %d left."                   // line number, quantity left
	// MsgOutOfStock is Pay's refusal when the stock taken is short of a
	// product no line of the basket names any longer.
	MsgOutOfStock = "A product of your cart is out of stock."
	// MsgMaxQuantity refuses a line's quantity past cart.MaxCartQuantity
	// (DRF's max_value message).
	MsgMaxQuantity = "Ensure this value is less than or equal to %d."
)
