package domain

import "unicode/utf8"

// MsgInvalidUTF8 refuses a text that is not valid UTF-8.
const MsgInvalidUTF8 = "Enter text in valid UTF-8."

// TextProblem tells why s cannot be taken as text: MsgNullCharacters for a
// NUL character, MsgInvalidUTF8 for bytes that are not UTF-8; "" when it
// can. Both surfaces refuse such text where they read it (a path, a query
// parameter, a body, a GraphQL value), before any service: PostgreSQL
// refuses both in a bound parameter (a 500), and Bun drops a NUL from a
// value it writes into a statement, so "CODE\x00" would find "CODE".
func TextProblem(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0:
			return MsgNullCharacters
		case r == utf8.RuneError && n == 1:
			return MsgInvalidUTF8
		}
		i += n
	}
	return ""
}

// JSONTextProblem tells why the JSON text b cannot be read as text, which
// JSON decoders hide by reading U+FFFD instead: MsgInvalidUTF8 for bytes
// that are not UTF-8 or for a \u escape of a lone surrogate ("\ud800");
// "" otherwise. A NUL ("\u0000") is left to TextProblem on the decoded
// strings, which name the field.
func JSONTextProblem(b []byte) string {
	if !utf8.Valid(b) {
		return MsgInvalidUTF8
	}
	inString := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(b):
			i++
			if b[i] != 'u' {
				continue
			}
			r, ok := hex4(b, i+1)
			if !ok {
				continue // not an escape: the decoder refuses it
			}
			i += 4
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return MsgInvalidUTF8
			case r >= 0xD800 && r <= 0xDBFF:
				if i+2 >= len(b) || b[i+1] != '\\' || b[i+2] != 'u' {
					return MsgInvalidUTF8
				}
				if low, ok := hex4(b, i+3); !ok || low < 0xDC00 || low > 0xDFFF {
					return MsgInvalidUTF8
				}
				i += 6
			}
		}
	}
	return ""
}

// hex4 reads four hexadecimal digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
