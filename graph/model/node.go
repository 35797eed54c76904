package model

// The hand-written models of Node types (graph/node.go encodes their ids).

func (Box) IsNode()                   {}
func (BoxOffer) IsNode()              {}
func (GiftcardPrototype) IsNode()     {}
func (Event) IsNode()                 {}
func (Workshop) IsNode()              {}
func (AdminVoucherPrototype) IsNode() {}
func (VoucherOption) IsNode()         {}
