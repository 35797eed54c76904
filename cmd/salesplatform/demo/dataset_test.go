package demo

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"salesplatform/domain"
)

func TestDataReads(t *testing.T) {
	d, err := Data()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range d.Gifts {
		if d.Seller(g) == nil {
			t.Errorf("gift %s has no seller", g.Code)
		}
	}
	if d.Partners[0].Marketplace != true || d.Coupons[0].Code == "" || d.NetworkPartners[0].SourceID == "" {
		t.Errorf("the markers: first partner %+v, first coupon %+v, first network partner %+v", d.Partners[0].Key, d.Coupons[0],
			d.NetworkPartners[0])
	}
}

// Every text of the dataset is given in the eight languages.
func TestDataEveryLanguage(t *testing.T) {
	d, err := Data()
	if err != nil {
		t.Fatal(err)
	}
	localized := reflect.TypeFor[domain.Localized]()
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch {
		case v.Type() == localized && v.IsNil(): // not given: a catalogue prototype's name
		case v.Type() == localized:
			for _, lang := range domain.Languages {
				if v.MapIndex(reflect.ValueOf(lang)).IsValid() && v.MapIndex(reflect.ValueOf(lang)).String() != "" {
					continue
				}
				t.Errorf("%s has no %s text", path, lang)
			}
		case v.Kind() == reflect.Pointer:
			if !v.IsNil() {
				walk(path, v.Elem())
			}
		case v.Kind() == reflect.Slice:
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		case v.Kind() == reflect.Struct:
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if !f.IsExported() {
					continue
				}
				walk(path+"."+f.Name, v.Field(i))
			}
		}
	}
	walk("Dataset", reflect.ValueOf(*d))
}

// The data files are checked before anything is loaded: an unknown field,
// a shared value that does not exist, a record naming no record.
func TestDataRefusesMistakes(t *testing.T) {
	files := func(partners, catalogue string) fstest.MapFS {
		return fstest.MapFS{
			"data/shared.json":    {Data: []byte(`{"castle": {"en": "Castle"}}`)},
			"data/partners.json":  {Data: []byte(partners)},
			"data/catalogue.json": {Data: []byte(catalogue)},
			"data/administration.json": {Data: []byte(`{"coupons": [{"partner": "market", "code": "HELLO"}],
				"environments": [{"key": "city"}],
				"adminPrototypes": [{"key": "tour", "partner": "market", "universe": "castles", "environment": "city", "images": [["night", "day"]]}]}`)},
		}
	}
	const partners = `{"partners": [{"key": "market", "marketplace": true}]}`
	for _, c := range []struct {
		name, partners, catalogue, want string
	}{
		{"unknown field", `{"partners": [{"key": "market", "colour": "red"}]}`, `{}`, `unknown field "colour"`},
		{"unknown shared value", partners, `{"universes": [{"key": "castles", "name": {"$ref": "palace"}}]}`, `shared.json has no "palace"`},
		{"reference to nothing", partners, `{"universes": [{"key": "castles", "parent": "monuments"}]}`,
			`universe castles: no record of universes has the key "monuments"`},
		{"key twice", partners, `{"universes": [{"key": "castles"}], "themes": [{"key": "castles"}]}`,
			`the key "castles" names a record of universes and one of themes`},
		{"unknown colour", partners, `{"universes": [{"key": "castles", "name": {"$ref": "castle"}}]}`,
			`administration prototype tour: no colour "night"`},
	} {
		_, err := read(files(c.partners, c.catalogue))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// network.json's mistakes are refused before anything is loaded too.
func TestDataRefusesNetworkMistakes(t *testing.T) {
	files := func(network string) fstest.MapFS {
		return fstest.MapFS{
			"data/shared.json": {Data: []byte(`{}`)},
			"data/partners.json": {Data: []byte(`{"partners": [{"key": "market", "marketplace": true},
				{"key": "chateau", "networkOf": "market"}, {"key": "solo"}]}`)},
			"data/catalogue.json": {Data: []byte(`{"boxes": [{"key": "box", "marketplace": "market"}]}`)},
			"data/administration.json": {Data: []byte(`{"coupons": [{"partner": "market", "code": "HELLO"}],
				"gifts": [{"code": "DEMO-1", "kind": "network_giftcard", "of": "market"}]}`)},
			"data/network.json": {Data: []byte(network)},
		}
	}
	const partner = `"networkPartners": [{"key": "cellar", "marketplace": "market", "sourceId": "1"}]`
	for _, c := range []struct{ name, network, want string }{
		{"no network partner", `{}`, "nothing marks the dataset as loaded"},
		{"marketplace that is not one", `{"networkPartners": [{"key": "cellar", "marketplace": "chateau"}]}`,
			`network partner cellar: no marketplace has the key "chateau"`},
		{"referrer later", `{"networkPartners": [{"key": "cellar", "marketplace": "market", "referrer": "inn"},
			{"key": "inn", "marketplace": "market"}]}`, `network partner cellar: no record of networkPartners has the key "inn"`},
		{"offer of a demo partner", `{` + partner + `, "boxOffers": [{"box": "box", "partner": "chateau"}]}`,
			`offer of chateau in the box box: no network partner of market has the key "chateau"`},
		{"usage outside the network", `{` + partner + `, "networkGiftcards": [{"code": "C1", "marketplace": "market",
			"status": "paid", "usages": [{"partner": "solo"}]}]}`,
			`network giftcard C1, usage 1: no partner of the network of market has the key "solo"`},
		{"used card not paid", `{` + partner + `, "networkGiftcards": [{"code": "C1", "marketplace": "market",
			"status": "draft", "holds": [{"partner": "cellar"}]}]}`, "network giftcard C1: only a paid one is used"},
		{"cancelled in a payout", `{` + partner + `, "networkVouchers": [{"code": "V1", "box": "box", "status": "paid",
			"usages": [{"partner": "chateau", "cancelled": true, "payout": 1}]}]}`,
			"network voucher V1, usage 1: a usage in a payout cannot be cancelled"},
		{"unknown status", `{` + partner + `, "networkVouchers": [{"code": "V1", "box": "box", "status": "used"}]}`,
			`network voucher V1: unknown status "used"`},
		{"code twice", `{` + partner + `, "networkVouchers": [{"code": "demo-1", "box": "box", "status": "paid"}]}`,
			"the gift code demo-1 is given twice"},
		{"unknown hold end", `{` + partner + `, "networkGiftcards": [{"code": "C1", "marketplace": "market",
			"status": "paid", "holds": [{"partner": "cellar", "reservationId": "R1", "end": "keep"}]}]}`,
			`network giftcard C1, hold R1: unknown end "keep"`},
	} {
		_, err := read(files(c.network))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
