package cart

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"salesplatform/domain"
)

// MaxReturnURLLength bounds a cart's return_url, under what every browser
// and proxy takes in a Location header.
const MaxReturnURLLength = 2000

// Messages of the return_url rule.
const (
	MsgReturnURLInvalid  = "Enter a valid URL."
	MsgReturnURLHTTPS    = "Enter an https URL."
	MsgReturnURLUserinfo = "Enter a URL without a user name or password."
	MsgReturnURLLocal    = "Enter a URL of a public host, not a local or private address."
)

// checkReturnURL is the rule of a cart's return_url, where the funnel sends
// the customer back to: an absolute https URL of a public host, written in
// the characters of RFC 3986 only (anything else percent-encoded), without
// user information, at most MaxReturnURLLength characters. development
// allows http and https to localhost, *.localhost and loopback addresses,
// for a shop run on a developer's machine. It returns the code and message
// of the first rule broken, "" when raw passes. The API checks it on save and the
// funnel again before it sends a customer there, so a cart stored under an
// older rule never redirects anywhere this rule refuses.
func checkReturnURL(raw string, development bool) (code, msg string) {
	if utf8.RuneCountInString(raw) > MaxReturnURLLength {
		return domain.VMaxLength, fmt.Sprintf("Ensure this field has no more than %d characters.", MaxReturnURLLength)
	}
	return domain.VInvalid, returnURLRule(raw, development)
}

func returnURLRule(raw string, development bool) string {
	if !uriCharacters(raw) {
		return MsgReturnURLInvalid
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Opaque != "" || u.Host == "" {
		return MsgReturnURLInvalid
	}
	if u.User != nil {
		return MsgReturnURLUserinfo
	}
	if p := u.Port(); p != "" { // url.Parse takes any digits
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return MsgReturnURLInvalid
		}
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	addr, err := netip.ParseAddr(host)
	isIP := err == nil
	if !isIP && !hostName(host) {
		return MsgReturnURLInvalid
	}
	addr = addr.Unmap() // ::ffff:127.0.0.1 is 127.0.0.1
	local := host == "localhost" || strings.HasSuffix(host, ".localhost") || (isIP && addr.IsLoopback())
	switch {
	case local && development:
		return ""
	case local, isIP && (!addr.IsGlobalUnicast() || addr.IsPrivate()):
		return MsgReturnURLLocal
	case u.Scheme != "https":
		return MsgReturnURLHTTPS
	}
	return ""
}

// uriCharacters reports whether s holds only the characters RFC 3986 allows
// in a URI, each % starting an escape of two hex digits: no space, control,
// quote, angle bracket, backslash or non-ASCII character, which url.Parse
// lets through and a browser would rewrite.
func uriCharacters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// hostName reports whether host is a DNS name: labels of letters, digits
// and inner hyphens, the last not numeric, as a browser would read a
// numeric last label as an IPv4 address (https://2130706433/ is
// 127.0.0.1).
func hostName(host string) bool {
	labels := strings.Split(host, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	last := labels[len(labels)-1]
	return strings.Trim(last, "0123456789") != "" && !strings.HasPrefix(last, "0x")
}

// returnURL reads a document's return_url into v's errors or the value.
func returnURL(v *domain.Validator, o domain.Optional[string], development bool) string {
	ru := o.Value
	if domain.HasFieldError(v, "return_url") || ru == "" {
		return ""
	}
	if code, msg := checkReturnURL(ru, development); msg != "" {
		v.Add(code, msg, "return_url")
		return ""
	}
	return ru
}
