package domain

// Languages are the service's languages, in the order the API lists them.
var Languages = []string{"fr", "en", "es", "it", "de", "nl", "ca", "pt"}

// Localized holds one text per language code. A language without text is
// absent (the API shows it as null).
type Localized map[string]string

// In returns the text in lang, "" when there is none.
func (l Localized) In(lang string) string { return l[lang] }

// IsLanguage reports whether code is one of Languages.
func IsLanguage(code string) bool {
	for _, l := range Languages {
		if l == code {
			return true
		}
	}
	return false
}
