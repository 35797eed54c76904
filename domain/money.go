package domain

import "github.com/shopspring/decimal"

// Money is an amount in a currency. Amounts are decimals end to end (NUMERIC
// in PostgreSQL), never binary floating point.
type Money struct {
	Amount   decimal.Decimal
	Currency string // ISO 4217, e.g. "EUR"
}

// DefaultCurrency is the currency of records that do not name one.
const DefaultCurrency = "EUR"
