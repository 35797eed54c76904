package model

import (
	"encoding/base64"
	"strconv"
)

// The hand-written models of Node types, and the encoding of global ids
// (graph/node.go decodes them).

func (Box) IsNode()                   {}
func (BoxOffer) IsNode()              {}
func (GiftcardPrototype) IsNode()     {}
func (Event) IsNode()                 {}
func (Workshop) IsNode()              {}
func (AdminVoucherPrototype) IsNode() {}
func (VoucherOption) IsNode()         {}
func (EventFormula) IsNode()          {}
func (EventSlotListItem) IsNode()     {}
func (WorkshopCategory) IsNode()      {}
func (WorkshopSession) IsNode()       {}
func (WorkshopLevel) IsNode()         {}
func (WorkshopTheme) IsNode()         {}
func (WorkshopTarget) IsNode()        {}
func (WorkshopSkill) IsNode()         {}
func (WorkshopRecipe) IsNode()        {}

// GlobalID is the global id of the typ record with key: the unpadded
// base64url of "typ:key" (docs/GRAPHQL.md). graph/node.go decodes it.
func GlobalID(typ, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(typ + ":" + key))
}

// NumericGlobalID is the global id of the typ record with a numeric id.
func NumericGlobalID(typ string, id int64) string { return GlobalID(typ, strconv.FormatInt(id, 10)) }

// The hand-written Node types' ids (their GraphQL id field): methods, not
// resolvers, so that the executor answers them in line rather than in a
// goroutine each. The generated Node models hold theirs in a GlobalID
// field, which their one conversion in package graph fills.

// GlobalID is the Box's global id.
func (o *Box) GlobalID() string { return NumericGlobalID("Box", o.ID) }

// GlobalID is the BoxOffer's global id.
func (o *BoxOffer) GlobalID() string { return NumericGlobalID("BoxOffer", o.ID) }

// GlobalID is the Event's global id.
func (o *Event) GlobalID() string { return NumericGlobalID("Event", o.ID) }

// GlobalID is the GiftcardPrototype's global id.
func (o *GiftcardPrototype) GlobalID() string { return NumericGlobalID("GiftcardPrototype", o.ID) }

// GlobalID is the Workshop's global id.
func (o *Workshop) GlobalID() string { return NumericGlobalID("Workshop", o.ID) }

// GlobalID is the AdminVoucherPrototype's global id.
func (o *AdminVoucherPrototype) GlobalID() string {
	return NumericGlobalID("AdminVoucherPrototype", o.ID)
}

// GlobalID is the VoucherOption's global id.
func (o *VoucherOption) GlobalID() string { return NumericGlobalID("VoucherOption", o.ID) }

// GlobalID is the EventFormula's global id.
func (o *EventFormula) GlobalID() string { return NumericGlobalID("EventFormula", o.ID) }

// GlobalID is the EventSlotListItem's global id.
func (o *EventSlotListItem) GlobalID() string { return NumericGlobalID("EventSlotListItem", o.ID) }

// GlobalID is the WorkshopCategory's global id.
func (o *WorkshopCategory) GlobalID() string { return NumericGlobalID("WorkshopCategory", o.ID) }

// GlobalID is the WorkshopSession's global id.
func (o *WorkshopSession) GlobalID() string { return NumericGlobalID("WorkshopSession", o.ID) }

// GlobalID is the WorkshopLevel's global id.
func (o *WorkshopLevel) GlobalID() string { return NumericGlobalID("WorkshopLevel", o.ID) }

// GlobalID is the WorkshopTheme's global id.
func (o *WorkshopTheme) GlobalID() string { return NumericGlobalID("WorkshopTheme", o.ID) }

// GlobalID is the WorkshopTarget's global id.
func (o *WorkshopTarget) GlobalID() string { return NumericGlobalID("WorkshopTarget", o.ID) }

// GlobalID is the WorkshopSkill's global id.
func (o *WorkshopSkill) GlobalID() string { return NumericGlobalID("WorkshopSkill", o.ID) }

// GlobalID is the WorkshopRecipe's global id.
func (o *WorkshopRecipe) GlobalID() string { return NumericGlobalID("WorkshopRecipe", o.ID) }
