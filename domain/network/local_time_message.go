package network

// MsgDateTime is the error of a value that is neither a date-time nor a
// day, for the surfaces that read a LocalTime.
const MsgDateTime = msgDateTime
