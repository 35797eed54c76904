package domain

import "salesplatform/domain/l10n"

// Languages are the service's languages, in the order the API lists them.
var Languages = l10n.Languages

// Localized holds one text per language code. A language without text is
// absent (the API shows it as null).
type Localized = l10n.Localized

// IsLanguage reports whether code is one of Languages.
func IsLanguage(code string) bool {
	for _, l := range Languages {
		if l == code {
			return true
		}
	}
	return false
}
