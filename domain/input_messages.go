package domain

// The messages and bounds of the field rules (Fields, input.go), DRF's
// words, which legacy clients display; the surfaces' readers of a value
// of the wrong type (rest/drf) use the type messages.

// msgNoName refuses a prototype, option or category without any name.
const msgNoName = "At least one name_<lang> must not be blank."

const (
	MsgUUID        = "Must be a valid UUID."
	MsgPKMissing   = "Invalid pk \"%d\" - object does not exist."
	MsgNotAList    = "Expected a list of items but got type \"%s\"."
	MsgNotADict    = "Expected a dictionary of items but got type \"%s\"."
	msgMaxInt32    = "Ensure this value is less than or equal to 2147483647."
	msgMinInt      = "Ensure this value is greater than or equal to %d."
	MaxInt32       = 1<<31 - 1
	maxListedPKs   = 100 // ids in one list field
	MaxServiceRows = 20  // services_info entries of an option
	MsgDayFormat   = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
	// MaxEmailLength is DRF's EmailField's (RFC 5321's path limit).
	MaxEmailLength = 254
)
