package rest

import (
	"encoding/json"

	"github.com/shopspring/decimal"
)

// Money in the legacy bodies.

// jsonMoneyNumber is an amount as a JSON number with its two decimals.
func jsonMoneyNumber(d decimal.Decimal) json.Number { return json.Number(d.StringFixed(2)) }
