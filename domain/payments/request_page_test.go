package payments

import (
	"reflect"
	"testing"

	"salesplatform/domain"
)

// Every language a request may be made in has every word of its page,
// and none is the English one but in English.
func TestPageTextsOfEveryLanguage(t *testing.T) {
	if len(pageTexts) != len(PageLanguages) {
		t.Errorf("%d languages of words, %d page languages", len(pageTexts), len(PageLanguages))
	}
	en := reflect.ValueOf(TextsOf("en"))
	for _, lang := range PageLanguages {
		texts, ok := pageTexts[lang]
		if !ok {
			t.Errorf("%s: no words", lang)
			continue
		}
		v := reflect.ValueOf(texts)
		for i := range v.NumField() {
			name, s := v.Type().Field(i).Name, v.Field(i).String()
			switch {
			case s == "":
				t.Errorf("%s: %s is empty", lang, name)
			case lang != "en" && s == en.Field(i).String() && name != "Description":
				t.Errorf("%s: %s is the English %q", lang, name, s)
			}
		}
	}
	for _, lang := range domain.Languages {
		if _, ok := pageTexts[lang]; !ok {
			t.Errorf("the service's language %s has no page", lang)
		}
	}
}
