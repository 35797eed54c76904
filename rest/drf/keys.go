package drf

import (
	"slices"
)

// Unknown refuses, with msg, every key of the object not in known, in key
// order: a body whose contract names every key it may hold.
func (d Reader) Unknown(known []string, msg string) {
	var keys []string
	for k := range d.Obj {
		if !slices.Contains(known, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		d.refuse(msg, k)
	}
}
