package model

// UserError is a rule an input broke, as the domain reported it: its path
// of the input's fields (the names the service read, list indexes as
// strings) and its code. Payloads answer it twice: as UserError (the
// shape shipped first, deprecated) and as their area's typed error
// (CatalogueError…), whose field and code resolvers map it to the input
// as sent and to the area's enum.
type UserError struct {
	Field   []string `json:"field"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
}
