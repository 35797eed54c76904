package graph

import (
	"reflect"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"

	"salesplatform/domain/widgets"
	"salesplatform/graph/model"
)

// TestWidgetFieldsRoundTrip checks the field lists of the widget
// conversions (navbarFields, floatingBarFields): with one field of a domain
// widget set at a time, the graph widget has exactly the field of that name
// set, and read back as an input it is the same domain widget.
func TestWidgetFieldsRoundTrip(t *testing.T) {
	roundTrip := func(n *widgets.WidgetNavbar, b *widgets.WidgetFloatingBar) (*model.MarketingWidgets, widgets.WidgetsInput) {
		out := toGraphMarketingWidgets(&widgets.WidgetsView{MarketingWidgets: &widgets.MarketingWidgets{Navbar: n, FloatingBar: b}})
		navbarIn, barIn := model.WidgetNavbarInput(*out.Navbar), model.WidgetFloatingBarInput(*out.FloattingBar)
		return out, toDomainWidgets(nil, model.MarketingWidgetsInput{
			Navbar: graphql.OmittableOf(&navbarIn), FloattingBar: graphql.OmittableOf(&barIn)})
	}
	eachFieldSet(t, func(field string, n *widgets.WidgetNavbar) {
		out, in := roundTrip(n, &widgets.WidgetFloatingBar{})
		if !reflect.DeepEqual(in.Navbar, n) {
			t.Errorf("navbar with %s set, read back: %+v", field, in.Navbar)
		}
		if set := fieldsSet(out.Navbar); len(set) != 1 || sameField(set[0]) != sameField(field) {
			t.Errorf("navbar with %s set: the graph's fields set are %q", field, set)
		}
	})
	eachFieldSet(t, func(field string, b *widgets.WidgetFloatingBar) {
		out, in := roundTrip(&widgets.WidgetNavbar{}, b)
		if !reflect.DeepEqual(in.FloatingBar, b) {
			t.Errorf("floating bar with %s set, read back: %+v", field, in.FloatingBar)
		}
		if set := fieldsSet(out.FloattingBar); len(set) != 1 || sameField(set[0]) != sameField(field) {
			t.Errorf("floating bar with %s set: the graph's fields set are %q", field, set)
		}
	})
}

// eachFieldSet calls fn with a T that has only one field set, for each of
// its fields (strings, ints and bools).
func eachFieldSet[T any](t *testing.T, fn func(field string, v *T)) {
	for i := range reflect.TypeFor[T]().NumField() {
		v := new(T)
		f := reflect.ValueOf(v).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int:
			f.SetInt(1)
		case reflect.Bool:
			f.SetBool(true)
		default:
			t.Fatalf("%T field %d: kind %s", v, i, f.Kind())
		}
		fn(reflect.TypeFor[T]().Field(i).Name, v)
	}
}

// sameField is a widget field's name without what only the graph's legacy
// names add (the widget's name, "floatting"), so that a graph field and
// the domain's field it shows have the same.
func sameField(name string) string {
	name = strings.ToLower(name)
	for _, prefix := range []string{"navbar", "floattingbar", "floatingbar"} {
		name = strings.ReplaceAll(name, prefix, "")
	}
	return name
}

// fieldsSet is the names of the fields of *v that are not zero.
func fieldsSet(v any) []string {
	s := reflect.ValueOf(v).Elem()
	var out []string
	for i := range s.NumField() {
		if !s.Field(i).IsZero() {
			out = append(out, s.Type().Field(i).Name)
		}
	}
	return out
}
