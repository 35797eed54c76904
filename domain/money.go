package domain

// DefaultCurrency is the currency of records that do not name one.
const DefaultCurrency = "EUR"
