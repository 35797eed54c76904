package domain

import "testing"

func TestTextProblem(t *testing.T) {
	for s, want := range map[string]string{
		"DEMO-NV-PAID": "", "été ✓ 😀": "", "": "",
		"DEMO\x00": MsgNullCharacters, "\xff": MsgInvalidUTF8, "\xc0\x80": MsgInvalidUTF8,
		"\xed\xa0\x80": MsgInvalidUTF8, "a\xe2\x82": MsgInvalidUTF8,
	} {
		if got := TextProblem(s); got != want {
			t.Errorf("TextProblem(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestJSONTextProblem(t *testing.T) {
	for s, want := range map[string]string{
		`{"a": "\ud83d\ude00"}`: "", `{"a": "\\ud800"}`: "", `{"a": "\u0000"}`: "", `"\u00e9"`: "",
		`{"a": "\ud800"}`: MsgInvalidUTF8, `{"a": "\udc00x"}`: MsgInvalidUTF8, `["\uD800\u0041"]`: MsgInvalidUTF8,
		`"\ud800`: MsgInvalidUTF8, "{\"a\": \"\xff\"}": MsgInvalidUTF8, `{"\ud800": 1}`: MsgInvalidUTF8,
		`{"a": "\u12"}`: "",
	} {
		if got := JSONTextProblem([]byte(s)); got != want {
			t.Errorf("JSONTextProblem(%s) = %q, want %q", s, got, want)
		}
	}
}
