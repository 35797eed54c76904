// Package widgets serves and saves a partner's marketing widgets (navbar and
// floating bar) shown on its site.
package widgets
