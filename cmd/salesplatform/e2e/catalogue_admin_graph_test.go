package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
)

// adminFixture is gcFixture (market, a marketplace with shop in its
// network; other outside it; staff) with market's token too.
type adminFixture struct {
	*gcFixture
	marketTok string
}

func newAdminFixture(t *testing.T) *adminFixture {
	t.Helper()
	f := &adminFixture{gcFixture: newGCFixture(t)}
	data := f.mustAsk(t, "", "", `mutation { createToken(input: {username: "market", password: "market-password"}) { token } }`, nil)
	var out struct{ CreateToken struct{ Token string } }
	gcMust(t, json.Unmarshal(data, &out))
	f.marketTok = out.CreateToken.Token
	return f
}

// rest reads path from the REST catalogue of site and returns its status
// and decoded body.
func (f *adminFixture) rest(t *testing.T, site, path string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("X-Partner-Domain", site)
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	CheckContract(t, req, rec.Code, rec.Header(), rec.Body.Bytes())
	var body map[string]any
	if strings.HasPrefix(strings.TrimSpace(rec.Body.String()), "{") {
		gcMust(t, json.Unmarshal(rec.Body.Bytes(), &body))
	} else {
		var list []map[string]any
		gcMust(t, json.Unmarshal(rec.Body.Bytes(), &list))
		body = map[string]any{"list": list}
	}
	return rec.Code, body
}

// mutate runs a mutation with token ("" for none) and returns the payload
// named field, decoded, and the errors.
func (f *adminFixture) mutate(t *testing.T, token, field, query string, vars map[string]any) (map[string]any, []gqlError) {
	t.Helper()
	data, errs := f.ask(t, "", token, query, vars)
	var out map[string]map[string]any
	gcMust(t, json.Unmarshal(data, &out))
	return out[field], errs
}

// mustMutate is mutate for a mutation that must succeed without user
// errors.
func (f *adminFixture) mustMutate(t *testing.T, token, field, query string, vars map[string]any) map[string]any {
	t.Helper()
	p, errs := f.mutate(t, token, field, query, vars)
	if errs != nil {
		t.Fatalf("errors: %+v", errs)
	}
	if ue, _ := p["userErrors"].([]any); len(ue) > 0 {
		t.Fatalf("userErrors: %v", ue)
	}
	return p
}

// wantUserErrors checks a payload's userErrors against want, a JSON list of
// {field, code, message}.
func wantUserErrors(t *testing.T, payload map[string]any, errs []gqlError, want string) {
	t.Helper()
	if errs != nil {
		t.Fatalf("errors: %+v, want user errors", errs)
	}
	got, _ := json.Marshal(payload["userErrors"])
	WantJSON(t, got, want)
}

// wantTypedErrors checks a payload's typed errors (errors).
func wantTypedErrors(t *testing.T, payload map[string]any, want string) {
	t.Helper()
	got, _ := json.Marshal(payload["errors"])
	WantJSON(t, got, want)
}

// wantRefused checks that a mutation failed with one error of code and a
// null payload.
func wantRefused(t *testing.T, payload map[string]any, errs []gqlError, code string) {
	t.Helper()
	wantErrorCode(t, errs, code)
	if payload != nil {
		t.Errorf("payload = %v, want null", payload)
	}
}

// str digs a string out of decoded JSON: str(m, "event", "id").
func str(t *testing.T, m any, path ...string) string {
	t.Helper()
	for _, p := range path {
		mm, ok := m.(map[string]any)
		if !ok {
			t.Fatalf("no %q in %v", p, m)
		}
		m = mm[p]
	}
	s, ok := m.(string)
	if !ok {
		t.Fatalf("%v at %v is not a string", m, path)
	}
	return s
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	gcMust(t, err)
	return string(b)
}

const (
	adminCreateEvent = `mutation($in: CreateEventInput!) { createEvent(input: $in) {
		event { id: legacyId name { fr en } coverImage images deliveryOptions { postalMailShippingCost { amount currency } postalMailDuration activatedPickupOnSiteDelivery } }
		userErrors { field code message } errors { field code message } } }`
	adminUpdateEvent = `mutation($in: UpdateEventInput!) { updateEvent(input: $in) {
		event { id: legacyId name { fr en } shortDescription { fr } } userErrors { field code message } errors { field code message } } }`
	adminAddSlot = `mutation($in: AddEventSlotInput!) { addEventSlot(input: $in) {
		slot { id availablePlaces funnelLink } userErrors { field code message } errors { field code message } } }`
	adminUpdateSlot = `mutation($in: UpdateEventSlotInput!) { updateEventSlot(input: $in) {
		slot { id availablePlaces } userErrors { field code message } errors { field code message } } }`
	adminRemoveSlot = `mutation($in: RemoveEventSlotInput!) { removeEventSlot(input: $in) {
		removedSlotId userErrors { field code message } errors { field code message } } }`
	adminAddFormula = `mutation($in: AddEventFormulaInput!) { addEventFormula(input: $in) {
		formula { id name { fr } price { amount currency currencyCode } } userErrors { field code message } errors { field code message } } }`
	adminUpdateFormula = `mutation($in: UpdateEventFormulaInput!) { updateEventFormula(input: $in) {
		formula { id price { amount } } userErrors { field code message } errors { field code message } } }`
	adminEventSettings = `mutation($in: UpdateEventSettingsInput!) { updateEventSettings(input: $in) {
		eventSettings { displayEventsPerSlots } userErrors { field code message } errors { field code message } } }`
)

// texts is a list of TextInput: language code, text pairs.
func texts(pairs ...string) []map[string]any {
	out := []map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, map[string]any{"language": strings.ToUpper(pairs[i]), "text": pairs[i+1]})
	}
	return out
}

func in(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return map[string]any{"in": m}
}

// mustEvent creates an event of the token's partner and returns its id.
func (f *adminFixture) mustEvent(t *testing.T, token string, kv ...any) string {
	t.Helper()
	p := f.mustMutate(t, token, "createEvent", adminCreateEvent, in(append([]any{"name", texts("fr", "Concert")}, kv...)...))
	return str(t, p, "event", "id")
}

func TestGraphAdminEvents(t *testing.T) {
	t.Parallel()
	f := newAdminFixture(t)
	const shopSite = "shop.example.com"
	start := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)

	t.Run("OK", func(t *testing.T) {
		p := f.mustMutate(t, f.shopTok, "createEvent", adminCreateEvent, in(
			"name", texts("fr", " Concert ", "en", "Concert"),
			"coverImage", "https://cdn.example.com/cover.jpg",
			"images", []string{"https://cdn.example.com/1.jpg"},
			"deliveryOptions", map[string]any{"postalMailShippingCost": "4.5", "postalMailDuration": 3,
				"activatedPickupOnSiteDelivery": true}))
		id := str(t, p, "event", "id")
		WantJSON(t, []byte(jsonOf(t, p["event"])), `{"id":"`+id+`","name":{"fr":"Concert","en":"Concert"},
			"coverImage":"https://cdn.example.com/cover.jpg","images":["https://cdn.example.com/1.jpg"],
			"deliveryOptions":{"postalMailShippingCost":{"amount":"4.50","currency":"EUR"},"postalMailDuration":3,
			"activatedPickupOnSiteDelivery":true}}`)

		p = f.mustMutate(t, f.shopTok, "updateEvent", adminUpdateEvent, in("id", id,
			"name", texts("fr", "Grand concert"), "shortDescription", texts("fr", "Le soir")))
		WantJSON(t, []byte(jsonOf(t, p["event"])), `{"id":"`+id+`","name":{"fr":"Grand concert","en":null},"shortDescription":{"fr":"Le soir"}}`)

		p = f.mustMutate(t, f.shopTok, "addEventFormula", adminAddFormula, in("eventId", id,
			"name", texts("fr", "Adulte"), "price", "25"))
		formulaID := str(t, p, "formula", "id")
		WantJSON(t, []byte(jsonOf(t, p["formula"])), `{"id":"`+formulaID+`","name":{"fr":"Adulte"},"price":{"amount":"25.00","currency":"EUR","currencyCode":"EUR"}}`)
		p = f.mustMutate(t, f.shopTok, "updateEventFormula", adminUpdateFormula, in("id", formulaID, "price", "19.90"))
		WantJSON(t, []byte(jsonOf(t, p["formula"])), `{"id":"`+formulaID+`","price":{"amount":"19.90"}}`)

		p = f.mustMutate(t, f.shopTok, "addEventSlot", adminAddSlot, in("eventId", id,
			"startingDatetime", start.Format(time.RFC3339), "endingDatetime", start.Add(2*time.Hour).Format(time.RFC3339),
			"availablePlaces", 40))
		slotID := str(t, p, "slot", "id")
		if !strings.HasSuffix(str(t, p, "slot", "funnelLink"), "/events/"+id+"/booking/?slot="+recordKey(t, "EventSlot", slotID)) {
			t.Errorf("funnelLink = %v", p["slot"])
		}
		p = f.mustMutate(t, f.shopTok, "updateEventSlot", adminUpdateSlot, in("id", slotID, "availablePlaces", 12))
		WantJSON(t, []byte(jsonOf(t, p["slot"])), `{"id":"`+slotID+`","availablePlaces":12}`)

		// The REST catalogue reads what the mutations wrote.
		status, body := f.rest(t, shopSite, "/api/v2/event_prototypes/"+id+"/")
		if status != 200 {
			t.Fatalf("REST status %d: %v", status, body)
		}
		if name := body["name"].(map[string]any); name["fr"] != "Grand concert" || name["en"] != nil {
			t.Errorf("REST name = %v", name)
		}
		if body["lowest_price"] != "19.90" || len(body["slots"].([]any)) != 1 {
			t.Errorf("REST lowest_price %v, slots %v", body["lowest_price"], body["slots"])
		}
		if d := body["delivery_options"].(map[string]any); d["postal_mail_shipping_cost"] != "4.50" {
			t.Errorf("REST delivery_options = %v", d)
		}

		p = f.mustMutate(t, f.shopTok, "removeEventSlot", adminRemoveSlot, in("id", slotID))
		if p["removedSlotId"] != slotID {
			t.Errorf("removedSlotId = %v", p["removedSlotId"])
		}
		_, body = f.rest(t, shopSite, "/api/v2/event_prototypes/"+id+"/")
		if len(body["slots"].([]any)) != 0 {
			t.Errorf("REST slots after removal = %v", body["slots"])
		}

		p = f.mustMutate(t, f.shopTok, "updateEventSettings", adminEventSettings, in("displayEventsPerSlots", true))
		WantJSON(t, []byte(jsonOf(t, p["eventSettings"])), `{"displayEventsPerSlots":true}`)
		_, body = f.rest(t, shopSite, "/api/v2/product_information/events/")
		if body["display_events_per_slots"] != true {
			t.Errorf("REST product information = %v", body)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		p, errs := f.mutate(t, f.shopTok, "createEvent", adminCreateEvent, in(
			// The deprecated lang takes any string; language, only a Language.
			"name", []map[string]any{{"lang": "xx", "text": "Concert"}, {"language": "FR", "text": strings.Repeat("é", 256)},
				{"lang": "fr", "text": "Encore"}, {"text": "Sans langue"}},
			"coverImage", "ftp://cdn.example.com/cover.jpg",
			"images", []string{"https://ok.example.com/a.jpg", ""},
			"deliveryOptions", map[string]any{"postalMailShippingCost": "-1", "pickupOnSiteCost": "1.234",
				"messengerDeliveryCost": "douze", "postalMailDuration": -1}))
		wantUserErrors(t, p, errs, `[
			{"field":["name","0","language"],"code":"invalid_choice","message":"\"xx\" is not a valid choice."},
			{"field":["name","1","text"],"code":"max_length","message":"Ensure this field has no more than 255 characters."},
			{"field":["name","2","language"],"code":"unique","message":"This language is given more than once."},
			{"field":["name","3","language"],"code":"required","message":"This field is required."},
			{"field":["coverImage"],"code":"invalid","message":"Enter a valid URL."},
			{"field":["images","1"],"code":"required","message":"This field may not be blank."},
			{"field":["deliveryOptions","postalMailShippingCost"],"code":"min_value","message":"Ensure this value is greater than or equal to 0."},
			{"field":["deliveryOptions","postalMailDuration"],"code":"min_value","message":"Ensure this value is greater than or equal to 0."},
			{"field":["deliveryOptions","pickupOnSiteCost"],"code":"max_decimal_places","message":"Ensure that there are no more than 2 decimal places."},
			{"field":["deliveryOptions","messengerDeliveryCost"],"code":"invalid","message":"A valid number is required."}]`)
		if p["event"] != nil {
			t.Errorf("event = %v, want null", p["event"])
		}

		p, errs = f.mutate(t, f.shopTok, "createEvent", adminCreateEvent, in("name", texts("fr", "  ")))
		wantUserErrors(t, p, errs, `[{"field":["name"],"code":"required","message":"This field is required."}]`)

		id := f.mustEvent(t, f.shopTok)
		p, errs = f.mutate(t, f.shopTok, "addEventSlot", adminAddSlot, in("eventId", id,
			"startingDatetime", start.Format(time.RFC3339), "endingDatetime", start.Format(time.RFC3339), "availablePlaces", -2))
		wantUserErrors(t, p, errs, `[
			{"field":["availablePlaces"],"code":"min_value","message":"Ensure this value is greater than or equal to 0."},
			{"field":["endingDatetime"],"code":"end_before_start","message":"The end must be after the start."}]`)
		p, errs = f.mutate(t, f.shopTok, "addEventFormula", adminAddFormula, in("eventId", id,
			"name", texts("fr", "Tarif"), "price", "12345678901"))
		wantUserErrors(t, p, errs, `[{"field":["price"],"code":"max_whole_digits","message":"Ensure that there are no more than 10 digits before the decimal point."}]`)
	})

	t.Run("ErrUnauthenticated", func(t *testing.T) {
		id := f.mustEvent(t, f.shopTok)
		p, errs := f.mutate(t, "", "createEvent", adminCreateEvent, in("name", texts("fr", "Concert")))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
		p, errs = f.mutate(t, "", "updateEvent", adminUpdateEvent, in("id", id, "name", texts("fr", "X")))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
		p, errs = f.mutate(t, "", "updateEventSettings", adminEventSettings, in("displayEventsPerSlots", true))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
	})

	t.Run("ErrOtherTenant", func(t *testing.T) {
		id := f.mustEvent(t, f.shopTok)
		p := f.mustMutate(t, f.shopTok, "addEventSlot", adminAddSlot, in("eventId", id,
			"startingDatetime", start.Format(time.RFC3339), "endingDatetime", start.Add(time.Hour).Format(time.RFC3339)))
		slotID := str(t, p, "slot", "id")
		p = f.mustMutate(t, f.shopTok, "addEventFormula", adminAddFormula, in("eventId", id, "name", texts("fr", "A"), "price", "1"))
		formulaID := str(t, p, "formula", "id")

		for name, try := range map[string]func() (map[string]any, []gqlError){
			"updateEvent": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.otherTok, "updateEvent", adminUpdateEvent, in("id", id, "name", texts("fr", "Volé")))
			},
			"addEventSlot": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.otherTok, "addEventSlot", adminAddSlot, in("eventId", id,
					"startingDatetime", start.Format(time.RFC3339), "endingDatetime", start.Add(time.Hour).Format(time.RFC3339)))
			},
			"updateEventSlot": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.otherTok, "updateEventSlot", adminUpdateSlot, in("id", slotID, "availablePlaces", 1))
			},
			"removeEventSlot": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.otherTok, "removeEventSlot", adminRemoveSlot, in("id", slotID))
			},
			"updateEventFormula": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.otherTok, "updateEventFormula", adminUpdateFormula, in("id", formulaID, "price", "0"))
			},
			"createEvent for shop": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.otherTok, "createEvent", adminCreateEvent, in("partnerId", gid(f.shop.ID), "name", texts("fr", "X")))
			},
			"settings for shop": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.otherTok, "updateEventSettings", adminEventSettings, in("partnerId", gid(f.shop.ID), "displayEventsPerSlots", true))
			},
			"unknown event": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.shopTok, "updateEvent", adminUpdateEvent, in("id", "999999", "name", texts("fr", "X")))
			},
			"id not an integer": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.shopTok, "updateEvent", adminUpdateEvent, in("id", "abc", "name", texts("fr", "X")))
			},
		} {
			t.Run(name, func(t *testing.T) {
				p, errs := try()
				wantRefused(t, p, errs, "NOT_FOUND")
			})
		}
		status, body := f.rest(t, "shop.example.com", "/api/v2/event_prototypes/"+id+"/")
		if status != 200 || body["name"].(map[string]any)["fr"] != "Concert" || len(body["slots"].([]any)) != 1 {
			t.Errorf("shop's event changed: %d %v", status, body)
		}
	})

	t.Run("Staff", func(t *testing.T) {
		p, errs := f.mutate(t, f.staffTok, "createEvent", adminCreateEvent, in("name", texts("fr", "Concert")))
		wantUserErrors(t, p, errs, `[{"field":["partnerId"],"code":"required","message":"This field is required: staff name the partner whose catalogue they change."}]`)

		p, errs = f.mutate(t, f.staffTok, "createEvent", adminCreateEvent, in("partnerId", "999999", "name", texts("fr", "Concert")))
		wantRefused(t, p, errs, "NOT_FOUND")

		// partnerId takes the Partner's global id, and the record id (deprecated).
		p = f.mustMutate(t, f.staffTok, "createEvent", adminCreateEvent, in("partnerId", globalID("Partner", f.other.UUID), "name", texts("fr", "Par global id")))
		var owner int64
		gcMust(t, f.db.NewRaw(`SELECT partner_id FROM events WHERE id = ?`, str(t, p, "event", "id")).Scan(context.Background(), &owner))
		if owner != f.other.ID {
			t.Errorf("event created for partner %d, want %d", owner, f.other.ID)
		}
		// The CataloguePartner's global id names the same partner.
		f.mustMutate(t, f.staffTok, "createEvent", adminCreateEvent, in("partnerId", globalID("CataloguePartner", f.other.ID), "name", texts("fr", "Par la vitrine")))
		// A global id of another type, or of a partner the caller does not see, names none.
		p, errs = f.mutate(t, f.staffTok, "createEvent", adminCreateEvent, in("partnerId", globalID("Event", f.other.ID), "name", texts("fr", "X")))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.shopTok, "createEvent", adminCreateEvent, in("partnerId", globalID("Partner", f.other.UUID), "name", texts("fr", "X")))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.shopTok, "createEvent", adminCreateEvent, in("partnerId", globalID("Partner", f.shop.UUID), "name", texts("fr", "Le mien")))
		if errs != nil || p["event"] == nil {
			t.Errorf("a member naming its own partner: %v %v", p, errs)
		}

		p = f.mustMutate(t, f.staffTok, "createEvent", adminCreateEvent, in("partnerId", gid(f.other.ID), "name", texts("fr", "Par le staff")))
		id := str(t, p, "event", "id")
		// A mutation's input takes the record's global id, and its numeric id (deprecated).
		f.mustMutate(t, f.staffTok, "updateEvent", adminUpdateEvent, in("id", globalID("Event", id), "name", texts("fr", "Revu par le staff")))
		p, errs = f.mutate(t, f.staffTok, "updateEvent", adminUpdateEvent, in("id", globalID("Workshop", id), "name", texts("fr", "X")))
		wantRefused(t, p, errs, "NOT_FOUND")
		// other owns it: it may change it too, and shop may not.
		f.mustMutate(t, f.otherTok, "updateEvent", adminUpdateEvent, in("id", id, "shortDescription", texts("fr", "Court")))
		p, errs = f.mutate(t, f.shopTok, "updateEvent", adminUpdateEvent, in("id", id, "name", texts("fr", "X")))
		wantRefused(t, p, errs, "NOT_FOUND")

		p = f.mustMutate(t, f.staffTok, "updateEventSettings", adminEventSettings, in("partnerId", gid(f.other.ID), "displayEventsPerSlots", true))
		WantJSON(t, []byte(jsonOf(t, p["eventSettings"])), `{"displayEventsPerSlots":true}`)
	})
}

func gid(id int64) string { return strconv.FormatInt(id, 10) }

const (
	adminCreateCategory = `mutation($in: CreateWorkshopCategoryInput!) { createWorkshopCategory(input: $in) {
		category { id name { fr } price { amount currency } specificValidityPeriod } userErrors { field code message } errors { field code message } } }`
	adminUpdateCategory = `mutation($in: UpdateWorkshopCategoryInput!) { updateWorkshopCategory(input: $in) {
		category { id price { amount } specificValidityPeriod } userErrors { field code message } errors { field code message } } }`
	adminCreateWorkshopTheme = `mutation($in: CreateWorkshopThemeInput!) { createWorkshopTheme(input: $in) {
		theme { id name { fr } } userErrors { field code message } errors { field code message } } }`
	adminUpdateWorkshopTheme = `mutation($in: UpdateWorkshopThemeInput!) { updateWorkshopTheme(input: $in) {
		theme { id name { fr } } userErrors { field code message } errors { field code message } } }`
	adminCreateWorkshop = `mutation($in: CreateWorkshopInput!) { createWorkshop(input: $in) {
		workshop { id: legacyId name { fr } address category { id price { amount } } level { id } themes { id } } userErrors { field code message } errors { field code message } } }`
	adminUpdateWorkshop = `mutation($in: UpdateWorkshopInput!) { updateWorkshop(input: $in) {
		workshop { id: legacyId name { fr } level { id } themes { id } } userErrors { field code message } errors { field code message } } }`
	adminAddSession = `mutation($in: AddWorkshopSessionInput!) { addWorkshopSession(input: $in) {
		session { id workshopId minCapacity maxCapacity availablePlaces } userErrors { field code message } errors { field code message } } }`
	adminUpdateSession = `mutation($in: UpdateWorkshopSessionInput!) { updateWorkshopSession(input: $in) {
		session { id availablePlaces } userErrors { field code message } errors { field code message } } }`
)

// mustCategory creates a workshop category of the token's partner and
// returns its id.
func (f *adminFixture) mustCategory(t *testing.T, token, price string, kv ...any) string {
	t.Helper()
	p := f.mustMutate(t, token, "createWorkshopCategory", adminCreateCategory,
		in(append([]any{"name", texts("fr", "Atelier"), "price", price}, kv...)...))
	return str(t, p, "category", "id")
}

func TestGraphAdminWorkshops(t *testing.T) {
	t.Parallel()
	f := newAdminFixture(t)
	const shopSite = "shop.example.com"
	start := time.Now().Add(72 * time.Hour).UTC().Truncate(time.Second)
	level := &catalogue.WorkshopTag{Name: domain.Localized{"fr": "Débutant"}}
	gcMust(t, f.workshops.CreateWorkshopTag(context.Background(), catalogue.WorkshopLevel, level))

	t.Run("OK", func(t *testing.T) {
		categoryID := f.mustCategory(t, f.shopTok, "30")
		p := f.mustMutate(t, f.staffTok, "createWorkshopTheme", adminCreateWorkshopTheme, in("name", texts("fr", "Poterie")))
		themeID := str(t, p, "theme", "id")
		p = f.mustMutate(t, f.staffTok, "updateWorkshopTheme", adminUpdateWorkshopTheme, in("id", themeID, "name", texts("fr", "Céramique")))
		WantJSON(t, []byte(jsonOf(t, p["theme"])), `{"id":"`+themeID+`","name":{"fr":"Céramique"}}`)

		p = f.mustMutate(t, f.shopTok, "createWorkshop", adminCreateWorkshop, in("name", texts("fr", "Tournage"),
			"address", "1 rue de la Paix", "categoryId", categoryID, "levelId", gid(level.ID), "themeIds", []string{themeID}))
		id := str(t, p, "workshop", "id")
		WantJSON(t, []byte(jsonOf(t, p["workshop"])), `{"id":"`+id+`","name":{"fr":"Tournage"},"address":"1 rue de la Paix",
			"category":{"id":"`+categoryID+`","price":{"amount":"30.00"}},"level":{"id":"`+globalID("WorkshopLevel", level.ID)+`"},"themes":[{"id":"`+themeID+`"}]}`)

		p = f.mustMutate(t, f.shopTok, "addWorkshopSession", adminAddSession, in("workshopId", id,
			"startingDatetime", start.Format(time.RFC3339), "endingDatetime", start.Add(3*time.Hour).Format(time.RFC3339),
			"minCapacity", 2, "maxCapacity", 10))
		sessionID := str(t, p, "session", "id")
		WantJSON(t, []byte(jsonOf(t, p["session"])), `{"id":"`+sessionID+`","workshopId":"`+id+`","minCapacity":2,"maxCapacity":10,"availablePlaces":10}`)
		f.mustMutate(t, f.shopTok, "updateWorkshopSession", adminUpdateSession, in("id", sessionID, "availablePlaces", 4))
		p = f.mustMutate(t, f.shopTok, "updateWorkshopCategory", adminUpdateCategory, in("id", categoryID, "price", "35.5", "specificValidityPeriod", 6))
		WantJSON(t, []byte(jsonOf(t, p["category"])), `{"id":"`+categoryID+`","price":{"amount":"35.50"},"specificValidityPeriod":6}`)

		status, body := f.rest(t, shopSite, "/api/v2/workshops/"+id+"/")
		if status != 200 {
			t.Fatalf("REST status %d: %v", status, body)
		}
		if c := body["category"].(map[string]any); c["price"] != "35.50" {
			t.Errorf("REST category = %v", c)
		}
		if s := body["sessions"].([]any); len(s) != 1 || s[0].(map[string]any)["available_places"] != 4.0 {
			t.Errorf("REST sessions = %v", s)
		}
		if th := body["themes"].([]any); len(th) != 1 || th[0].(map[string]any)["name"].(map[string]any)["fr"] != "Céramique" {
			t.Errorf("REST themes = %v", th)
		}

		// Lists replace the links; null removes the level.
		p = f.mustMutate(t, f.shopTok, "updateWorkshop", adminUpdateWorkshop, in("id", id, "name", texts("fr", "Modelage"),
			"themeIds", []string{}, "levelId", nil))
		WantJSON(t, []byte(jsonOf(t, p["workshop"])), `{"id":"`+id+`","name":{"fr":"Modelage"},"level":null,"themes":[]}`)
		_, body = f.rest(t, shopSite, "/api/v2/workshops/"+id+"/")
		if body["level"] != nil || len(body["themes"].([]any)) != 0 || body["name"].(map[string]any)["fr"] != "Modelage" {
			t.Errorf("REST after update = %v", body)
		}
		p = f.mustMutate(t, f.shopTok, "updateWorkshopCategory", adminUpdateCategory, in("id", categoryID, "specificValidityPeriod", nil))
		if c := p["category"].(map[string]any); c["specificValidityPeriod"] != nil {
			t.Errorf("specificValidityPeriod = %v, want null", c)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		otherCategory := f.mustCategory(t, f.otherTok, "10")
		p, errs := f.mutate(t, f.shopTok, "createWorkshop", adminCreateWorkshop, in("name", texts("fr", "Tournage"),
			"address", strings.Repeat("a", 256), "categoryId", otherCategory, "levelId", "999999",
			"themeIds", []string{"999998"}))
		wantUserErrors(t, p, errs, `[
			{"field":["address"],"code":"max_length","message":"Ensure this field has no more than 255 characters."},
			{"field":["categoryId"],"code":"does_not_exist","message":"Invalid pk \"`+recordKey(t, "WorkshopCategory", otherCategory)+`\" - object does not exist."},
			{"field":["levelId"],"code":"does_not_exist","message":"Invalid pk \"999999\" - object does not exist."},
			{"field":["themeIds","0"],"code":"does_not_exist","message":"Invalid pk \"999998\" - object does not exist."}]`)

		p, errs = f.mutate(t, f.shopTok, "createWorkshopCategory", adminCreateCategory, in("name", texts("fr", "A"),
			"price", "1.999", "specificValidityPeriod", 0))
		wantUserErrors(t, p, errs, `[
			{"field":["price"],"code":"max_decimal_places","message":"Ensure that there are no more than 2 decimal places."},
			{"field":["specificValidityPeriod"],"code":"min_value","message":"Ensure this value is greater than or equal to 1."}]`)

		categoryID := f.mustCategory(t, f.shopTok, "30")
		p = f.mustMutate(t, f.shopTok, "createWorkshop", adminCreateWorkshop, in("name", texts("fr", "W"), "categoryId", categoryID))
		id := str(t, p, "workshop", "id")
		p, errs = f.mutate(t, f.shopTok, "addWorkshopSession", adminAddSession, in("workshopId", id,
			"startingDatetime", start.Format(time.RFC3339), "endingDatetime", start.Add(-time.Hour).Format(time.RFC3339),
			"minCapacity", 8, "maxCapacity", 5, "availablePlaces", 6))
		wantUserErrors(t, p, errs, `[
			{"field":["endingDatetime"],"code":"end_before_start","message":"The end must be after the start."},
			{"field":["minCapacity"],"code":"max_value","message":"Ensure this value is less than or equal to maxCapacity."},
			{"field":["availablePlaces"],"code":"max_value","message":"Ensure this value is less than or equal to maxCapacity."}]`)
	})

	t.Run("ErrForbidden", func(t *testing.T) {
		p, errs := f.mutate(t, f.shopTok, "createWorkshopTheme", adminCreateWorkshopTheme, in("name", texts("fr", "Poterie")))
		wantRefused(t, p, errs, "FORBIDDEN")
		p, errs = f.mutate(t, f.marketTok, "updateWorkshopTheme", adminUpdateWorkshopTheme, in("id", "1", "name", texts("fr", "X")))
		wantRefused(t, p, errs, "FORBIDDEN")
	})

	t.Run("ErrUnauthenticated", func(t *testing.T) {
		p, errs := f.mutate(t, "", "createWorkshopCategory", adminCreateCategory, in("name", texts("fr", "A"), "price", "1"))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
		p, errs = f.mutate(t, "", "createWorkshopTheme", adminCreateWorkshopTheme, in("name", texts("fr", "A")))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
	})

	t.Run("ErrOtherTenant", func(t *testing.T) {
		categoryID := f.mustCategory(t, f.shopTok, "30")
		p := f.mustMutate(t, f.shopTok, "createWorkshop", adminCreateWorkshop, in("name", texts("fr", "W"), "categoryId", categoryID))
		id := str(t, p, "workshop", "id")
		p = f.mustMutate(t, f.shopTok, "addWorkshopSession", adminAddSession, in("workshopId", id,
			"startingDatetime", start.Format(time.RFC3339), "endingDatetime", start.Add(time.Hour).Format(time.RFC3339), "maxCapacity", 5))
		sessionID := str(t, p, "session", "id")

		p, errs := f.mutate(t, f.otherTok, "updateWorkshop", adminUpdateWorkshop, in("id", id, "name", texts("fr", "X")))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.otherTok, "addWorkshopSession", adminAddSession, in("workshopId", id,
			"startingDatetime", start.Format(time.RFC3339), "endingDatetime", start.Add(time.Hour).Format(time.RFC3339), "maxCapacity", 5))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.otherTok, "updateWorkshopSession", adminUpdateSession, in("id", sessionID, "availablePlaces", 0))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.otherTok, "updateWorkshopCategory", adminUpdateCategory, in("id", categoryID, "price", "0"))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.otherTok, "createWorkshopCategory", adminCreateCategory, in("partnerId", gid(f.shop.ID),
			"name", texts("fr", "A"), "price", "1"))
		wantRefused(t, p, errs, "NOT_FOUND")
	})

	t.Run("Staff", func(t *testing.T) {
		categoryID := f.mustCategory(t, f.staffTok, "12", "partnerId", gid(f.other.ID))
		p := f.mustMutate(t, f.staffTok, "createWorkshop", adminCreateWorkshop, in("partnerId", gid(f.other.ID),
			"name", texts("fr", "Pour other"), "categoryId", categoryID))
		id := str(t, p, "workshop", "id")
		f.mustMutate(t, f.otherTok, "updateWorkshop", adminUpdateWorkshop, in("id", id, "address", "Ici"))
		f.mustMutate(t, f.staffTok, "updateWorkshop", adminUpdateWorkshop, in("id", id, "address", "Là"))
		// A category of shop is not one of other's.
		shopCategory := f.mustCategory(t, f.shopTok, "1")
		p, errs := f.mutate(t, f.staffTok, "updateWorkshop", adminUpdateWorkshop, in("id", id, "categoryId", shopCategory))
		wantUserErrors(t, p, errs, `[{"field":["categoryId"],"code":"does_not_exist","message":"Invalid pk \"`+recordKey(t, "WorkshopCategory", shopCategory)+`\" - object does not exist."}]`)
	})
}

const (
	adminCreateGiftcard = `mutation($in: CreateGiftcardPrototypeInput!) { createGiftcardPrototype(input: $in) {
		giftcardPrototype { id: legacyId title { fr } customizedAmount minimumAmount { amount currency } predefinedAmounts { amount }
			moneyPot { activated logo } validityPeriod validityUnit partnerId }
		userErrors { field code message } errors { field code message } } }`
	adminUpdateGiftcard = `mutation($in: UpdateGiftcardPrototypeInput!) { updateGiftcardPrototype(input: $in) {
		giftcardPrototype { id: legacyId title { fr } predefinedAmounts { amount } validityPeriod validityUnit } userErrors { field code message } errors { field code message } } }`
	adminFileVoucher = `mutation($in: FileVoucherPrototypeInput!) { fileVoucherPrototype(input: $in) {
		voucherPrototype { id universeId themeIds } userErrors { field code message } errors { field code message } } }`
	adminCreateTheme = `mutation($in: CreateThemeInput!) { createTheme(input: $in) {
		theme { id name { fr } } userErrors { field code message } errors { field code message } } }`
	adminUpdateTheme = `mutation($in: UpdateThemeInput!) { updateTheme(input: $in) {
		theme { id name { fr } } userErrors { field code message } errors { field code message } } }`
	adminCreateUniverse = `mutation($in: CreateUniverseInput!) { createUniverse(input: $in) {
		universe { id name { fr } parentId order } userErrors { field code message } errors { field code message } } }`
	adminUpdateUniverse = `mutation($in: UpdateUniverseInput!) { updateUniverse(input: $in) {
		universe { id name { fr } parentId order } userErrors { field code message } errors { field code message } } }`
)

func (f *adminFixture) mustUniverse(t *testing.T, name string, parent string) string {
	t.Helper()
	kv := []any{"name", texts("fr", name)}
	if parent != "" {
		kv = append(kv, "parentId", parent)
	}
	p := f.mustMutate(t, f.staffTok, "createUniverse", adminCreateUniverse, in(kv...))
	return str(t, p, "universe", "id")
}

func TestGraphAdminPrototypes(t *testing.T) {
	t.Parallel()
	f := newAdminFixture(t)
	const shopSite = "shop.example.com"
	ctx := context.Background()
	voucher := &catalogue.VoucherPrototype{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Bon"}}
	gcMust(t, f.protos.CreateVoucherPrototype(ctx, voucher))

	t.Run("OK", func(t *testing.T) {
		p := f.mustMutate(t, f.shopTok, "createGiftcardPrototype", adminCreateGiftcard, in("title", texts("fr", "Carte"),
			"predefinedAmounts", []string{"20", "50.5"}, "moneyPotLogo", "https://cdn.example.com/pot.png", "moneyPotActivated", true))
		id := str(t, p, "giftcardPrototype", "id")
		WantJSON(t, []byte(jsonOf(t, p["giftcardPrototype"])), `{"id":"`+id+`","title":{"fr":"Carte"},"customizedAmount":false,
			"minimumAmount":{"amount":"0.00","currency":"EUR"},"predefinedAmounts":[{"amount":"20.00"},{"amount":"50.50"}],
			"moneyPot":{"activated":true,"logo":"https://cdn.example.com/pot.png"},"validityPeriod":12,"validityUnit":"MONTH",
			"partnerId":"`+gid(f.shop.ID)+`"}`)
		p = f.mustMutate(t, f.shopTok, "updateGiftcardPrototype", adminUpdateGiftcard, in("id", id,
			"predefinedAmounts", []string{"30"}, "validityPeriod", 2, "validityUnit", "YEAR"))
		WantJSON(t, []byte(jsonOf(t, p["giftcardPrototype"])), `{"id":"`+id+`","title":{"fr":"Carte"},
			"predefinedAmounts":[{"amount":"30.00"}],"validityPeriod":2,"validityUnit":"YEAR"}`)
		status, body := f.rest(t, shopSite, "/api/v2/giftcard_prototypes/"+id+"/")
		if status != 200 || jsonOf(t, body["predefined_amounts"]) != `["30.00"]` || body["validity_unit"] != "year" {
			t.Errorf("REST giftcard prototype: %d %v", status, body)
		}

		root := f.mustUniverse(t, "Loisirs", "")
		leaf := f.mustUniverse(t, "Sport", root)
		p = f.mustMutate(t, f.staffTok, "updateUniverse", adminUpdateUniverse, in("id", leaf, "order", 2, "name", texts("fr", "Sports")))
		WantJSON(t, []byte(jsonOf(t, p["universe"])), `{"id":"`+leaf+`","name":{"fr":"Sports"},"parentId":"`+recordKey(t, "UniverseRecord", root)+`","order":2}`)
		p = f.mustMutate(t, f.staffTok, "createTheme", adminCreateTheme, in("name", texts("fr", "Nature")))
		theme := str(t, p, "theme", "id")
		p = f.mustMutate(t, f.staffTok, "updateTheme", adminUpdateTheme, in("id", theme, "name", texts("fr", "Plein air")))
		WantJSON(t, []byte(jsonOf(t, p["theme"])), `{"id":"`+theme+`","name":{"fr":"Plein air"}}`)

		p = f.mustMutate(t, f.shopTok, "fileVoucherPrototype", adminFileVoucher, in("id", gid(voucher.ID),
			"universeId", leaf, "themeIds", []string{theme}))
		WantJSON(t, []byte(jsonOf(t, p["voucherPrototype"])), `{"id":"`+globalID("VoucherPrototype", voucher.ID)+`","universeId":"`+recordKey(t, "UniverseRecord", leaf)+`","themeIds":["`+recordKey(t, "Theme", theme)+`"]}`)
		_, body = f.rest(t, shopSite, "/api/v2/universes/")
		tree := jsonOf(t, body["list"])
		if !strings.Contains(tree, `"Loisirs"`) || !strings.Contains(tree, `"Sports"`) {
			t.Errorf("REST universes = %s", tree)
		}
		_, body = f.rest(t, shopSite, "/api/v2/themes/")
		if themes := jsonOf(t, body["list"]); !strings.Contains(themes, `"Plein air"`) {
			t.Errorf("REST themes = %s", themes)
		}
		// A voucher prototype keeps a universe (the administration API requires one); its themes may go.
		p, errs := f.mutate(t, f.shopTok, "fileVoucherPrototype", adminFileVoucher, in("id", gid(voucher.ID), "universeId", nil))
		wantUserErrors(t, p, errs, `[{"field":["universeId"],"code":"null","message":"This field may not be null."}]`)
		p = f.mustMutate(t, f.shopTok, "fileVoucherPrototype", adminFileVoucher, in("id", gid(voucher.ID), "themeIds", []string{}))
		WantJSON(t, []byte(jsonOf(t, p["voucherPrototype"])), `{"id":"`+globalID("VoucherPrototype", voucher.ID)+`","universeId":"`+recordKey(t, "UniverseRecord", leaf)+`","themeIds":[]}`)
		_, body = f.rest(t, shopSite, "/api/v2/themes/")
		if len(body["list"].([]map[string]any)) != 0 {
			t.Errorf("REST themes after unfiling = %v", body["list"])
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		p, errs := f.mutate(t, f.shopTok, "createGiftcardPrototype", adminCreateGiftcard, in("title", texts("fr", "Carte"),
			"predefinedAmounts", []string{"0", "-5", "x"}, "validityPeriod", 0, "moneyPotLogo", "javascript:alert(1)",
			"minimumAmount", "3.141"))
		wantUserErrors(t, p, errs, `[
			{"field":["minimumAmount"],"code":"max_decimal_places","message":"Ensure that there are no more than 2 decimal places."},
			{"field":["predefinedAmounts","0"],"code":"min_value","message":"Ensure this value is greater than 0."},
			{"field":["predefinedAmounts","1"],"code":"min_value","message":"Ensure this value is greater than or equal to 0."},
			{"field":["predefinedAmounts","2"],"code":"invalid","message":"A valid number is required."},
			{"field":["moneyPotLogo"],"code":"invalid","message":"Enter a valid URL."},
			{"field":["validityPeriod"],"code":"min_value","message":"Ensure this value is greater than or equal to 1."}]`)
		p, errs = f.mutate(t, f.shopTok, "createGiftcardPrototype", adminCreateGiftcard, in("title", texts("fr", "Carte")))
		wantUserErrors(t, p, errs, `[{"field":["predefinedAmounts"],"code":"required","message":"Give predefined amounts, or let the buyer choose the amount."}]`)

		a := f.mustUniverse(t, "A", "")
		b := f.mustUniverse(t, "B", a)
		c := f.mustUniverse(t, "C", b)
		p, errs = f.mutate(t, f.staffTok, "createUniverse", adminCreateUniverse, in("name", texts("fr", "D"), "parentId", c))
		wantUserErrors(t, p, errs, `[{"field":["parentId"],"code":"max_depth","message":"Universes go at most 3 levels deep."}]`)
		p, errs = f.mutate(t, f.staffTok, "updateUniverse", adminUpdateUniverse, in("id", a, "parentId", c))
		wantUserErrors(t, p, errs, `[{"field":["parentId"],"code":"invalid","message":"A universe cannot be filed under itself or one of its sub-universes."}]`)

		p, errs = f.mutate(t, f.shopTok, "fileVoucherPrototype", adminFileVoucher, in("id", gid(voucher.ID),
			"universeId", "999999", "themeIds", []string{"999998"}))
		wantUserErrors(t, p, errs, `[
			{"field":["universeId"],"code":"does_not_exist","message":"Invalid pk \"999999\" - object does not exist."},
			{"field":["themeIds","0"],"code":"does_not_exist","message":"Invalid pk \"999998\" - object does not exist."}]`)
	})

	t.Run("ErrForbidden", func(t *testing.T) {
		p, errs := f.mutate(t, f.shopTok, "createUniverse", adminCreateUniverse, in("name", texts("fr", "A")))
		wantRefused(t, p, errs, "FORBIDDEN")
		p, errs = f.mutate(t, f.marketTok, "createTheme", adminCreateTheme, in("name", texts("fr", "A")))
		wantRefused(t, p, errs, "FORBIDDEN")
	})

	t.Run("ErrUnauthenticated", func(t *testing.T) {
		p, errs := f.mutate(t, "", "createGiftcardPrototype", adminCreateGiftcard, in("title", texts("fr", "Carte"), "customizedAmount", true))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
		p, errs = f.mutate(t, "", "fileVoucherPrototype", adminFileVoucher, in("id", gid(voucher.ID)))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
	})

	t.Run("ErrOtherTenant", func(t *testing.T) {
		p := f.mustMutate(t, f.shopTok, "createGiftcardPrototype", adminCreateGiftcard, in("title", texts("fr", "Carte"), "customizedAmount", true))
		id := str(t, p, "giftcardPrototype", "id")
		p, errs := f.mutate(t, f.otherTok, "updateGiftcardPrototype", adminUpdateGiftcard, in("id", id, "validityPeriod", 1))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.otherTok, "fileVoucherPrototype", adminFileVoucher, in("id", gid(voucher.ID), "themeIds", []string{}))
		wantRefused(t, p, errs, "NOT_FOUND")
		// market is shop's marketplace: it lists shop's giftcards, but does not manage them.
		p, errs = f.mutate(t, f.marketTok, "updateGiftcardPrototype", adminUpdateGiftcard, in("id", id, "validityPeriod", 1))
		wantRefused(t, p, errs, "NOT_FOUND")
	})

	t.Run("Staff", func(t *testing.T) {
		p := f.mustMutate(t, f.staffTok, "createGiftcardPrototype", adminCreateGiftcard, in("partnerId", gid(f.shop.ID),
			"title", texts("fr", "Par le staff"), "customizedAmount", true, "minimumAmount", "10"))
		id := str(t, p, "giftcardPrototype", "id")
		if p["giftcardPrototype"].(map[string]any)["partnerId"] != gid(f.shop.ID) {
			t.Errorf("partnerId = %v", p["giftcardPrototype"])
		}
		f.mustMutate(t, f.staffTok, "updateGiftcardPrototype", adminUpdateGiftcard, in("id", id, "title", texts("fr", "Revue")))
		status, body := f.rest(t, shopSite, "/api/v2/giftcard_prototypes/"+id+"/")
		if status != 200 || body["title"].(map[string]any)["fr"] != "Revue" {
			t.Errorf("REST: %d %v", status, body)
		}
	})
}

const (
	adminCreateBox = `mutation($in: CreateBoxInput!) { createBox(input: $in) {
		box { id name { fr } isActive price { amount currency } ranking universeIds images nbOffers } userErrors { field code message } errors { field code message } } }`
	adminUpdateBox = `mutation($in: UpdateBoxInput!) { updateBox(input: $in) {
		box { id name { fr } isActive universeIds images } userErrors { field code message } errors { field code message } } }`
	adminProposeOffer = `mutation($in: ProposeBoxOfferInput!) { proposeBoxOffer(input: $in) {
		offer { id boxId partnerId status } userErrors { field code message } errors { field code message } } }`
	adminReviewOffer = `mutation($in: ReviewBoxOfferInput!) { reviewBoxOffer(input: $in) {
		offer { id status } userErrors { field code message } errors { field code message } } }`
	adminAddNetwork = `mutation($in: NetworkPartnerInput!) { addNetworkPartner(input: $in) {
		networkPartnerIds userErrors { field code message } errors { field code message } } }`
	adminRemoveNetwork = `mutation($in: NetworkPartnerInput!) { removeNetworkPartner(input: $in) {
		networkPartnerIds userErrors { field code message } errors { field code message } } }`
)

// account creates an account (and its partner) and returns its token and
// partner.
func (f *adminFixture) account(t *testing.T, in account.NewAccountInput) (string, *domain.Partner) {
	t.Helper()
	in.Password = in.Username + "-password"
	a, err := account.NewAccountService(persistence.NewDatabase(f.db), nil, nil).CreateAccount(context.Background(), in)
	gcMust(t, err)
	return a.Token, a.Partner
}

func TestGraphAdminBoxes(t *testing.T) {
	t.Parallel()
	f := newAdminFixture(t)
	rivalTok, _ := f.account(t, account.NewAccountInput{Username: "rival", PartnerName: "Rival", Marketplace: true,
		Permissions: []string{domain.PermManageMasterAdmin}})
	universe := f.mustUniverse(t, "Évasion", "")
	nbOffers := func(t *testing.T, id string) any {
		t.Helper()
		status, body := f.rest(t, gcMarket, "/api/v2/network_vouchers/boxes/"+recordKey(t, "ManagedBox", id)+"/")
		if status != 200 {
			t.Fatalf("REST box %s: %d %v", id, status, body)
		}
		return body["nb_offers"]
	}

	t.Run("OK", func(t *testing.T) {
		p := f.mustMutate(t, f.marketTok, "createBox", adminCreateBox, in("name", texts("fr", "Week-end"),
			"price", "49.9", "isActive", true, "universeIds", []string{universe}, "images", []string{"https://cdn.example.com/b.jpg"}))
		id := str(t, p, "box", "id")
		WantJSON(t, []byte(jsonOf(t, p["box"])), `{"id":"`+id+`","name":{"fr":"Week-end"},"isActive":true,
			"price":{"amount":"49.90","currency":"CHF"},"ranking":1,"universeIds":["`+recordKey(t, "UniverseRecord", universe)+`"],
			"images":["https://cdn.example.com/b.jpg"],"nbOffers":0}`)
		p = f.mustMutate(t, f.marketTok, "updateBox", adminUpdateBox, in("id", id, "name", texts("fr", "Grand week-end"), "universeIds", []string{}))
		WantJSON(t, []byte(jsonOf(t, p["box"])), `{"id":"`+id+`","name":{"fr":"Grand week-end"},"isActive":true,
			"universeIds":[],"images":["https://cdn.example.com/b.jpg"]}`)
		_, body := f.rest(t, gcMarket, "/api/v2/network_vouchers/boxes/"+recordKey(t, "ManagedBox", id)+"/")
		if body["name"].(map[string]any)["fr"] != "Grand week-end" || body["price"] != "49.90" {
			t.Errorf("REST box = %v", body)
		}

		// shop, in market's network, proposes; market reviews.
		p = f.mustMutate(t, f.shopTok, "proposeBoxOffer", adminProposeOffer, in("boxId", id))
		offer := str(t, p, "offer", "id")
		WantJSON(t, []byte(jsonOf(t, p["offer"])), `{"id":"`+offer+`","boxId":"`+recordKey(t, "ManagedBox", id)+`","partnerId":"`+gid(f.shop.ID)+`","status":"DRAFT"}`)
		if n := nbOffers(t, id); n != 0.0 {
			t.Errorf("nb_offers of a draft = %v", n)
		}
		p = f.mustMutate(t, f.marketTok, "reviewBoxOffer", adminReviewOffer, in("id", offer, "decision", "VALIDATE"))
		WantJSON(t, []byte(jsonOf(t, p["offer"])), `{"id":"`+offer+`","status":"VALIDATED"}`)
		if n := nbOffers(t, id); n != 1.0 {
			t.Errorf("nb_offers after validation = %v", n)
		}
		f.mustMutate(t, f.marketTok, "reviewBoxOffer", adminReviewOffer, in("id", offer, "decision", "REFUSE"))
		if n := nbOffers(t, id); n != 0.0 {
			t.Errorf("nb_offers after refusal = %v", n)
		}
		p = f.mustMutate(t, f.shopTok, "proposeBoxOffer", adminProposeOffer, in("boxId", id))
		WantJSON(t, []byte(jsonOf(t, p["offer"])), `{"id":"`+offer+`","boxId":"`+recordKey(t, "ManagedBox", id)+`","partnerId":"`+gid(f.shop.ID)+`","status":"DRAFT"}`)

		// The network.
		p = f.mustMutate(t, f.marketTok, "addNetworkPartner", adminAddNetwork, in("networkPartnerId", gid(f.other.ID)))
		WantJSON(t, []byte(jsonOf(t, p["networkPartnerIds"])), `["`+gid(f.shop.ID)+`","`+gid(f.other.ID)+`"]`)
		status, _ := f.rest(t, gcMarket, "/api/v2/partners/"+gid(f.other.ID)+"/")
		if status != 200 {
			t.Errorf("REST partner in the network: %d", status)
		}
		p = f.mustMutate(t, f.marketTok, "removeNetworkPartner", adminRemoveNetwork, in("networkPartnerId", gid(f.other.ID)))
		WantJSON(t, []byte(jsonOf(t, p["networkPartnerIds"])), `["`+gid(f.shop.ID)+`"]`)
		if status, _ := f.rest(t, gcMarket, "/api/v2/partners/"+gid(f.other.ID)+"/"); status != 404 {
			t.Errorf("REST partner out of the network: %d", status)
		}
	})

	t.Run("ManagedLists", func(t *testing.T) {
		// An inactive box, which the catalogue hides, and offers in every status.
		p := f.mustMutate(t, f.marketTok, "createBox", adminCreateBox, in("name", texts("fr", "Caché"), "price", "10",
			"isActive", false, "ranking", 0, "images", []string{"https://cdn.example.com/h.jpg"}))
		hidden := str(t, p, "box", "id")
		p = f.mustMutate(t, f.shopTok, "proposeBoxOffer", adminProposeOffer, in("boxId", hidden))
		draft := str(t, p, "offer", "id")
		if status, _ := f.rest(t, gcMarket, "/api/v2/network_vouchers/boxes/"+recordKey(t, "ManagedBox", hidden)+"/"); status != 404 {
			t.Fatalf("REST inactive box: %d", status)
		}

		const boxes = `query($p: ID) { managedBoxes(partnerId: $p, first: 1) { totalCount edges { node { id isActive images } } } }`
		data := f.mustAsk(t, "", f.marketTok, boxes, nil)
		var got struct {
			ManagedBoxes struct {
				TotalCount int
				Edges      []struct{ Node map[string]any }
			}
		}
		gcMust(t, json.Unmarshal(data, &got))
		if got.ManagedBoxes.TotalCount < 2 || jsonOf(t, got.ManagedBoxes.Edges[0].Node) !=
			`{"id":"`+hidden+`","images":["https://cdn.example.com/h.jpg"],"isActive":false}` {
			t.Errorf("managedBoxes = %s", data)
		}
		staff := f.mustAsk(t, "", f.staffTok, boxes, map[string]any{"p": gid(f.market.ID)})
		if string(staff) != string(data) {
			t.Errorf("staff naming the marketplace: %s, want %s", staff, data)
		}

		const offers = `query($b: ID, $s: BoxOfferStatus) { managedBoxOffers(boxId: $b, status: $s) {
			totalCount edges { node { id boxId partnerId status } } } }`
		data = f.mustAsk(t, "", f.marketTok, offers, map[string]any{"b": hidden, "s": "DRAFT"})
		WantJSON(t, data, `{"managedBoxOffers": {"totalCount": 1, "edges": [{"node": {"id": "`+draft+`", "boxId": "`+recordKey(t, "ManagedBox", hidden)+`",
			"partnerId": "`+gid(f.shop.ID)+`", "status": "DRAFT"}}]}}`)
		data = f.mustAsk(t, "", f.marketTok, offers, map[string]any{"b": hidden, "s": "VALIDATED"})
		WantJSON(t, data, `{"managedBoxOffers": {"totalCount": 0, "edges": []}}`)

		// Another marketplace sees none of them; a partner that is not a
		// marketplace, or without the permission, is refused.
		data = f.mustAsk(t, "", rivalTok, offers, map[string]any{"b": hidden})
		WantJSON(t, data, `{"managedBoxOffers": {"totalCount": 0, "edges": []}}`)
		for _, tok := range []string{f.shopTok, f.readerTok} {
			_, errs := f.ask(t, "", tok, boxes, nil)
			wantErrorCode(t, errs, "FORBIDDEN")
		}
		_, errs := f.ask(t, "", f.staffTok, offers, nil)
		wantErrorCode(t, errs, "BAD_USER_INPUT")
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		p, errs := f.mutate(t, f.marketTok, "createBox", adminCreateBox, in("name", texts("de", ""),
			"price", "-1", "peopleIncluded", -1, "universeIds", []string{"999999"}))
		wantUserErrors(t, p, errs, `[
			{"field":["name"],"code":"required","message":"This field is required."},
			{"field":["price"],"code":"min_value","message":"Ensure this value is greater than or equal to 0."},
			{"field":["peopleIncluded"],"code":"min_value","message":"Ensure this value is greater than or equal to 0."},
			{"field":["universeIds","0"],"code":"does_not_exist","message":"Invalid pk \"999999\" - object does not exist."}]`)

		p = f.mustMutate(t, f.marketTok, "createBox", adminCreateBox, in("name", texts("fr", "B"), "price", "10"))
		id := str(t, p, "box", "id")
		p = f.mustMutate(t, f.shopTok, "proposeBoxOffer", adminProposeOffer, in("boxId", id))
		offer := str(t, p, "offer", "id")
		p, errs = f.mutate(t, f.shopTok, "proposeBoxOffer", adminProposeOffer, in("boxId", id))
		wantUserErrors(t, p, errs, `[{"field":["status"],"code":"invalid_state","message":"An offer with status DRAFT cannot be proposed again."}]`)
		f.mustMutate(t, f.marketTok, "reviewBoxOffer", adminReviewOffer, in("id", offer, "decision", "VALIDATE"))
		p, errs = f.mutate(t, f.marketTok, "reviewBoxOffer", adminReviewOffer, in("id", offer, "decision", "VALIDATE"))
		wantUserErrors(t, p, errs, `[{"field":["status"],"code":"invalid_state","message":"An offer with status VALIDATED cannot be validated."}]`)

		p, errs = f.mutate(t, f.marketTok, "addNetworkPartner", adminAddNetwork, in("networkPartnerId", gid(f.market.ID)))
		wantUserErrors(t, p, errs, `[{"field":["networkPartnerId"],"code":"invalid","message":"A marketplace is not a partner of its own network."}]`)
		p, errs = f.mutate(t, f.marketTok, "addNetworkPartner", adminAddNetwork, in("networkPartnerId", "999999"))
		wantUserErrors(t, p, errs, `[{"field":["networkPartnerId"],"code":"does_not_exist","message":"Invalid pk \"999999\" - object does not exist."}]`)
	})

	t.Run("ErrForbidden", func(t *testing.T) {
		p := f.mustMutate(t, f.marketTok, "createBox", adminCreateBox, in("name", texts("fr", "B"), "price", "10"))
		id := str(t, p, "box", "id")
		p = f.mustMutate(t, f.shopTok, "proposeBoxOffer", adminProposeOffer, in("boxId", id))
		offer := str(t, p, "offer", "id")

		for name, try := range map[string]func() (map[string]any, []gqlError){
			"createBox": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.shopTok, "createBox", adminCreateBox, in("name", texts("fr", "B"), "price", "10"))
			},
			"updateBox": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.shopTok, "updateBox", adminUpdateBox, in("id", id, "isActive", true))
			},
			"shop validates its own offer": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.shopTok, "reviewBoxOffer", adminReviewOffer, in("id", offer, "decision", "VALIDATE"))
			},
			"addNetworkPartner": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.shopTok, "addNetworkPartner", adminAddNetwork, in("networkPartnerId", gid(f.other.ID)))
			},
			"staff for a partner that is not a marketplace": func() (map[string]any, []gqlError) {
				return f.mutate(t, f.staffTok, "createBox", adminCreateBox, in("partnerId", gid(f.shop.ID), "name", texts("fr", "B"), "price", "10"))
			},
		} {
			t.Run(name, func(t *testing.T) {
				p, errs := try()
				wantRefused(t, p, errs, "FORBIDDEN")
			})
		}
	})

	t.Run("ErrUnauthenticated", func(t *testing.T) {
		p, errs := f.mutate(t, "", "createBox", adminCreateBox, in("name", texts("fr", "B"), "price", "10"))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
		p, errs = f.mutate(t, "", "reviewBoxOffer", adminReviewOffer, in("id", "1", "decision", "VALIDATE"))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
	})

	t.Run("ErrOtherTenant", func(t *testing.T) {
		p := f.mustMutate(t, f.marketTok, "createBox", adminCreateBox, in("name", texts("fr", "B"), "price", "10"))
		id := str(t, p, "box", "id")
		p = f.mustMutate(t, f.shopTok, "proposeBoxOffer", adminProposeOffer, in("boxId", id))
		offer := str(t, p, "offer", "id")

		p, errs := f.mutate(t, rivalTok, "updateBox", adminUpdateBox, in("id", id, "isActive", false))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, rivalTok, "reviewBoxOffer", adminReviewOffer, in("id", offer, "decision", "VALIDATE"))
		wantRefused(t, p, errs, "NOT_FOUND")
		// other is not in market's network: market's boxes are not its to offer in.
		p, errs = f.mutate(t, f.otherTok, "proposeBoxOffer", adminProposeOffer, in("boxId", id))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, rivalTok, "addNetworkPartner", adminAddNetwork, in("partnerId", gid(f.market.ID), "networkPartnerId", gid(f.other.ID)))
		wantRefused(t, p, errs, "NOT_FOUND")
	})

	t.Run("Staff", func(t *testing.T) {
		p := f.mustMutate(t, f.staffTok, "createBox", adminCreateBox, in("partnerId", gid(f.market.ID), "name", texts("fr", "Staff"), "price", "10", "isActive", true))
		id := str(t, p, "box", "id")
		p = f.mustMutate(t, f.staffTok, "proposeBoxOffer", adminProposeOffer, in("boxId", id, "partnerId", gid(f.shop.ID)))
		offer := str(t, p, "offer", "id")
		f.mustMutate(t, f.staffTok, "reviewBoxOffer", adminReviewOffer, in("id", offer, "decision", "VALIDATE"))
		if n := nbOffers(t, id); n != 1.0 {
			t.Errorf("nb_offers = %v", n)
		}
		p = f.mustMutate(t, f.staffTok, "addNetworkPartner", adminAddNetwork, in("partnerId", gid(f.market.ID), "networkPartnerId", gid(f.other.ID)))
		WantJSON(t, []byte(jsonOf(t, p["networkPartnerIds"])), `["`+gid(f.shop.ID)+`","`+gid(f.other.ID)+`"]`)
	})
}

const (
	adminProfile = `mutation($in: UpdatePartnerProfileInput!) { updatePartnerProfile(input: $in) {
		partner { id: legacyId description { fr } region city latitude longitude facilities { wifi petsAllowed } socialLinks { key value } labels { name logo } }
		userErrors { field code message } errors { field code message } } }`
	adminAddLabel = `mutation($in: AddPartnerLabelInput!) { addPartnerLabel(input: $in) {
		partner { labels { name logo } } userErrors { field code message } errors { field code message } } }`
	adminRemoveLabel = `mutation($in: RemovePartnerLabelInput!) { removePartnerLabel(input: $in) {
		partner { labels { name } } userErrors { field code message } errors { field code message } } }`
	adminLegal = `mutation($in: UpdateLegalInformationInput!) { updateLegalInformation(input: $in) {
		legalInformation { name agencyName city capitalStock legalNoticeEmail agencyWebsite } userErrors { field code message } errors { field code message } } }`
	adminRefundTerms = `mutation($in: UpdateRefundWithdrawalTermsInput!) { updateRefundWithdrawalTerms(input: $in) {
		refundWithdrawalTerms { fr en } userErrors { field code message } errors { field code message } } }`
	adminEventsPI = `mutation($in: UpdateEventsProductInformationInput!) { updateEventsProductInformation(input: $in) {
		eventsProductInformation { title { fr } tosUrl { key value } displayEventsPerSlots displayFullyBookedEvents } userErrors { field code message } errors { field code message } } }`
	adminGiftcardsPI = `mutation($in: UpdateGiftcardsProductInformationInput!) { updateGiftcardsProductInformation(input: $in) {
		giftcardsProductInformation { title { fr } partners { id } } userErrors { field code message } errors { field code message } } }`
	adminNetworkGiftcardsPI = `mutation($in: UpdateNetworkGiftcardsProductInformationInput!) { updateNetworkGiftcardsProductInformation(input: $in) {
		networkGiftcardsProductInformation { title { fr } giftcard { minimumAmount { amount currency } predefinedAmounts { amount } validityUnit } moneyPot { activated logo } }
		userErrors { field code message } errors { field code message } } }`
	adminNetworkVouchersPI = `mutation($in: UpdateNetworkVouchersProductInformationInput!) { updateNetworkVouchersProductInformation(input: $in) {
		networkVouchersProductInformation { title { fr } displayByUniverse validityPeriod } userErrors { field code message } errors { field code message } } }`
	adminVouchersPI = `mutation($in: UpdateVouchersProductInformationInput!) { updateVouchersProductInformation(input: $in) {
		vouchersProductInformation { subtitle { fr } activatedThemeFilter methodOfDisplay } userErrors { field code message } errors { field code message } } }`
	adminWorkshopsPI = `mutation($in: UpdateWorkshopsProductInformationInput!) { updateWorkshopsProductInformation(input: $in) {
		workshopsProductInformation { title { fr } phoneNumber defaultWorkshopImage displayPhoneNumber minNbFreePlacesForLabelShown } userErrors { field code message } errors { field code message } } }`
)

func TestGraphAdminPartnerSettings(t *testing.T) {
	t.Parallel()
	f := newAdminFixture(t)
	const shopSite = "shop.example.com"

	t.Run("OK", func(t *testing.T) {
		p := f.mustMutate(t, f.shopTok, "updatePartnerProfile", adminProfile, in("description", texts("fr", "Chez nous"),
			"region", "Bretagne", "city", "Brest", "latitude", "48.390394", "longitude", "-4.486076",
			"facilities", map[string]any{"wifi": true}, "socialLinks", []map[string]any{{"name": "instagram", "url": "https://instagram.com/shop"}}))
		WantJSON(t, []byte(jsonOf(t, p["partner"])), `{"id":"`+gid(f.shop.ID)+`","description":{"fr":"Chez nous"},"region":"Bretagne",
			"city":"Brest","latitude":48.390394,"longitude":-4.486076,"facilities":{"wifi":true,"petsAllowed":false},
			"socialLinks":[{"key":"instagram","value":"https://instagram.com/shop"}],"labels":[]}`)
		_, body := f.rest(t, shopSite, "/api/v2/partners/me/")
		if body["region"] != "Bretagne" || body["latitude"] != 48.390394 {
			t.Errorf("REST partner = %v", body)
		}

		p = f.mustMutate(t, f.shopTok, "addPartnerLabel", adminAddLabel, in("name", "Qualité Tourisme", "logo", "https://cdn.example.com/qt.png"))
		WantJSON(t, []byte(jsonOf(t, p["partner"])), `{"labels":[{"name":"Qualité Tourisme","logo":"https://cdn.example.com/qt.png"}]}`)
		var labelID int64
		gcMust(t, f.db.NewRaw("SELECT id FROM partner_labels WHERE partner_id = ?", f.shop.ID).Scan(context.Background(), &labelID))
		_, body = f.rest(t, shopSite, "/api/v2/partners/me/")
		if jsonOf(t, body["label_and_network"]) != `[{"logo":"https://cdn.example.com/qt.png","name":"Qualité Tourisme"}]` {
			t.Errorf("REST labels = %v", body["label_and_network"])
		}
		p = f.mustMutate(t, f.shopTok, "removePartnerLabel", adminRemoveLabel, in("id", gid(labelID)))
		WantJSON(t, []byte(jsonOf(t, p["partner"])), `{"labels":[]}`)

		p = f.mustMutate(t, f.shopTok, "updateLegalInformation", adminLegal, in("agencyName", "Shop SAS", "city", "Brest",
			"capitalStock", "10000", "legalNoticeEmail", "legal@shop.example.com", "agencyWebsite", "https://shop.example.com"))
		WantJSON(t, []byte(jsonOf(t, p["legalInformation"])), `{"name":"Shop","agencyName":"Shop SAS","city":"Brest",
			"capitalStock":"10000.00","legalNoticeEmail":"legal@shop.example.com","agencyWebsite":"https://shop.example.com"}`)
		_, body = f.rest(t, shopSite, "/api/v2/partner_legal_information/")
		if li := body["list"].([]map[string]any)[0]; li["agency_name"] != "Shop SAS" || li["capital_stock"] != "10000.00" {
			t.Errorf("REST legal information = %v", li)
		}

		p = f.mustMutate(t, f.shopTok, "updateRefundWithdrawalTerms", adminRefundTerms, in("terms", texts("fr", "14 jours")))
		WantJSON(t, []byte(jsonOf(t, p["refundWithdrawalTerms"])), `{"fr":"14 jours","en":"-"}`)
		_, body = f.rest(t, shopSite, "/api/v2/refund_withdrawal_terms/")
		if terms := body["list"].([]map[string]any)[0]["refund_withdrawal_terms"].(map[string]any); terms["fr"] != "14 jours" {
			t.Errorf("REST refund terms = %v", terms)
		}

		p = f.mustMutate(t, f.shopTok, "updateEventsProductInformation", adminEventsPI, in("title", texts("fr", "Billets"),
			"tosUrl", []map[string]any{{"language": "FR", "url": "https://shop.example.com/cgv"}}, "displayEventsPerSlots", true))
		WantJSON(t, []byte(jsonOf(t, p["eventsProductInformation"])), `{"title":{"fr":"Billets"},
			"tosUrl":[{"key":"fr","value":"https://shop.example.com/cgv"}],"displayEventsPerSlots":true,"displayFullyBookedEvents":false}`)
		_, body = f.rest(t, shopSite, "/api/v2/product_information/events/")
		if body["display_events_per_slots"] != true || body["title"].(map[string]any)["fr"] != "Billets" {
			t.Errorf("REST events product information = %v", body)
		}

		p = f.mustMutate(t, f.shopTok, "updateGiftcardsProductInformation", adminGiftcardsPI, in("title", texts("fr", "Cartes")))
		WantJSON(t, []byte(jsonOf(t, p["giftcardsProductInformation"])), `{"title":{"fr":"Cartes"},"partners":[{"id":"`+globalID("PartnerAgency", f.shop.ID)+`"}]}`)
		p = f.mustMutate(t, f.shopTok, "updateVouchersProductInformation", adminVouchersPI, in("subtitle", texts("fr", "Bons"),
			"activatedThemeFilter", true, "methodOfDisplay", 2))
		WantJSON(t, []byte(jsonOf(t, p["vouchersProductInformation"])), `{"subtitle":{"fr":"Bons"},"activatedThemeFilter":true,"methodOfDisplay":2}`)
		p = f.mustMutate(t, f.shopTok, "updateWorkshopsProductInformation", adminWorkshopsPI, in("title", texts("fr", "Ateliers"),
			"phoneNumber", "+33 2 98 00 00 00", "displayPhoneNumber", true, "defaultWorkshopImage", "https://cdn.example.com/w.jpg",
			"minNbFreePlacesForLabelShown", 3))
		WantJSON(t, []byte(jsonOf(t, p["workshopsProductInformation"])), `{"title":{"fr":"Ateliers"},"phoneNumber":"+33 2 98 00 00 00",
			"defaultWorkshopImage":"https://cdn.example.com/w.jpg","displayPhoneNumber":true,"minNbFreePlacesForLabelShown":3}`)
		_, body = f.rest(t, shopSite, "/api/v2/product_information/workshops/")
		if body["phone_number"] != "+33 2 98 00 00 00" || body["min_nb_free_places_for_label_shown"] != 3.0 {
			t.Errorf("REST workshops product information = %v", body)
		}

		p = f.mustMutate(t, f.marketTok, "updateNetworkGiftcardsProductInformation", adminNetworkGiftcardsPI, in("title", texts("fr", "Réseau"),
			"giftcard", map[string]any{"minimumAmount": "5", "predefinedAmounts": []string{"25", "50"}, "validityUnit": "YEAR"},
			"moneyPot", map[string]any{"activated": true, "logo": "https://cdn.example.com/pot.png"}))
		WantJSON(t, []byte(jsonOf(t, p["networkGiftcardsProductInformation"])), `{"title":{"fr":"Réseau"},
			"giftcard":{"minimumAmount":{"amount":"5.00","currency":"CHF"},"predefinedAmounts":[{"amount":"25.00"},{"amount":"50.00"}],"validityUnit":"YEAR"},
			"moneyPot":{"activated":true,"logo":"https://cdn.example.com/pot.png"}}`)
		_, body = f.rest(t, gcMarket, "/api/v2/product_information/network_giftcards/")
		if g := body["giftcard"].(map[string]any); g["minimum_amount"] != "5.00" || g["validity_unit"] != "year" {
			t.Errorf("REST network giftcards product information = %v", body)
		}
		p = f.mustMutate(t, f.marketTok, "updateNetworkVouchersProductInformation", adminNetworkVouchersPI, in("title", texts("fr", "Coffrets"),
			"displayByUniverse", true, "validityPeriod", 12))
		WantJSON(t, []byte(jsonOf(t, p["networkVouchersProductInformation"])), `{"title":{"fr":"Coffrets"},"displayByUniverse":true,"validityPeriod":12}`)
		_, body = f.rest(t, gcMarket, "/api/v2/product_information/network_vouchers/")
		if body["display_by_universe"] != true {
			t.Errorf("REST network vouchers product information = %v", body)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		p, errs := f.mutate(t, f.shopTok, "updatePartnerProfile", adminProfile, in("latitude", "91", "longitude", "2.1234567",
			"city", strings.Repeat("x", 101), "description", []map[string]any{{"lang": "klingon", "text": "nuqneH"}},
			"socialLinks", []map[string]any{{"name": "x", "url": "ftp://x"}, {"name": "x", "url": "https://x.example.com"}}))
		wantUserErrors(t, p, errs, `[
			{"field":["description","0","language"],"code":"invalid_choice","message":"\"klingon\" is not a valid choice."},
			{"field":["city"],"code":"max_length","message":"Ensure this field has no more than 100 characters."},
			{"field":["latitude"],"code":"max_value","message":"Ensure this value is between -90 and 90."},
			{"field":["longitude"],"code":"max_decimal_places","message":"Ensure that there are no more than 6 decimal places."},
			{"field":["socialLinks","0","url"],"code":"invalid","message":"Enter a valid URL."},
			{"field":["socialLinks","1","name"],"code":"unique","message":"This network is given more than once."}]`)
		p, errs = f.mutate(t, f.shopTok, "updateLegalInformation", adminLegal, in("legalNoticeEmail", "not-an-email", "capitalStock", "1.001",
			"agencyWebsite", "shop.example.com"))
		wantUserErrors(t, p, errs, `[
			{"field":["legalNoticeEmail"],"code":"invalid","message":"Enter a valid email address."},
			{"field":["agencyWebsite"],"code":"invalid","message":"Enter a valid URL."},
			{"field":["capitalStock"],"code":"max_decimal_places","message":"Ensure that there are no more than 2 decimal places."}]`)
		p, errs = f.mutate(t, f.shopTok, "addPartnerLabel", adminAddLabel, in("name", " ", "logo", "/relative.png"))
		wantUserErrors(t, p, errs, `[
			{"field":["logo"],"code":"invalid","message":"Enter a valid URL."},
			{"field":["name"],"code":"required","message":"This field may not be blank."}]`)
		p, errs = f.mutate(t, f.shopTok, "updateEventsProductInformation", adminEventsPI, in(
			"tosUrl", []map[string]any{{"lang": "xx", "url": "https://a.example.com"}, {"language": "FR", "url": "nope"}}))
		wantUserErrors(t, p, errs, `[
			{"field":["tosUrl","0","language"],"code":"invalid_choice","message":"\"xx\" is not a valid choice."},
			{"field":["tosUrl","1","url"],"code":"invalid","message":"Enter a valid URL."}]`)
		p, errs = f.mutate(t, f.marketTok, "updateNetworkGiftcardsProductInformation", adminNetworkGiftcardsPI, in(
			"giftcard", map[string]any{"predefinedAmounts": []string{"-3"}}, "moneyPot", map[string]any{"logo": "x"}))
		wantUserErrors(t, p, errs, `[
			{"field":["moneyPot","logo"],"code":"invalid","message":"Enter a valid URL."},
			{"field":["giftcard","predefinedAmounts","0"],"code":"min_value","message":"Ensure this value is greater than or equal to 0."}]`)
	})

	t.Run("ErrForbidden", func(t *testing.T) {
		p, errs := f.mutate(t, f.shopTok, "updateNetworkGiftcardsProductInformation", adminNetworkGiftcardsPI, in("title", texts("fr", "X")))
		wantRefused(t, p, errs, "FORBIDDEN")
		p, errs = f.mutate(t, f.shopTok, "updateNetworkVouchersProductInformation", adminNetworkVouchersPI, in("title", texts("fr", "X")))
		wantRefused(t, p, errs, "FORBIDDEN")
	})

	t.Run("ErrUnauthenticated", func(t *testing.T) {
		p, errs := f.mutate(t, "", "updatePartnerProfile", adminProfile, in("city", "Brest"))
		wantRefused(t, p, errs, "UNAUTHENTICATED")
		p, errs = f.mutate(t, "", "updateWorkshopsProductInformation", adminWorkshopsPI, in())
		wantRefused(t, p, errs, "UNAUTHENTICATED")
	})

	t.Run("ErrOtherTenant", func(t *testing.T) {
		f.mustMutate(t, f.shopTok, "addPartnerLabel", adminAddLabel, in("name", "L", "logo", "https://cdn.example.com/l.png"))
		var labelID int64
		gcMust(t, f.db.NewRaw("SELECT max(id) FROM partner_labels WHERE partner_id = ?", f.shop.ID).Scan(context.Background(), &labelID))
		p, errs := f.mutate(t, f.otherTok, "removePartnerLabel", adminRemoveLabel, in("id", gid(labelID)))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.otherTok, "updateLegalInformation", adminLegal, in("partnerId", gid(f.shop.ID), "agencyName", "X"))
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.otherTok, "updateRefundWithdrawalTerms", adminRefundTerms, in("partnerId", gid(f.shop.ID), "terms", texts("fr", "X")))
		wantRefused(t, p, errs, "NOT_FOUND")
	})

	t.Run("Staff", func(t *testing.T) {
		p := f.mustMutate(t, f.staffTok, "updateRefundWithdrawalTerms", adminRefundTerms, in("partnerId", gid(f.shop.ID), "terms", texts("en", "Two weeks")))
		WantJSON(t, []byte(jsonOf(t, p["refundWithdrawalTerms"])), `{"fr":"-","en":"Two weeks"}`)
		p, errs := f.mutate(t, f.staffTok, "updateLegalInformation", adminLegal, in("agencyName", "X"))
		wantUserErrors(t, p, errs, `[{"field":["partnerId"],"code":"required","message":"This field is required: staff name the partner whose catalogue they change."}]`)
		p = f.mustMutate(t, f.staffTok, "updateNetworkVouchersProductInformation", adminNetworkVouchersPI, in("partnerId", gid(f.market.ID), "validityPeriod", 6))
		WantJSON(t, []byte(jsonOf(t, p["networkVouchersProductInformation"])), `{"title":{"fr":null},"displayByUniverse":false,"validityPeriod":6}`)
		p, errs = f.mutate(t, f.staffTok, "updateNetworkVouchersProductInformation", adminNetworkVouchersPI, in("partnerId", gid(f.shop.ID)))
		wantRefused(t, p, errs, "FORBIDDEN")
	})
}

const (
	adminWidgetsFields = `marketingWidgets { key purchaseUrl navbar { navbarOrientation navbarSide navbarPosition offerBackgroundColor navbarOfferBoxUrl }
		floattingBar { floattingBarOrientation floattingBarCtaButtonLink } } userErrors { field code message } errors { field code message }`
	adminCreateWidgets = `mutation($in: MarketingWidgetsInput!) { createMarketingWidgets(input: $in) { ` + adminWidgetsFields + ` } }`
	adminUpdateWidgets = `mutation($in: MarketingWidgetsInput!) { updateMarketingWidgets(input: $in) { ` + adminWidgetsFields + ` } }`
)

// widgetNavbar is a valid navbar input, with changes.
func widgetNavbar(kv ...any) map[string]any {
	n := map[string]any{"navbarOrientation": "vertical", "navbarSide": "left", "navbarPosition": 40,
		"offerBackgroundColor": "#112233", "offerTextColor": "#FFFFFF", "offerHoverColor": "#000000",
		"bookBackgroundColor": "#112233", "bookTextColor": "#FFFFFF", "bookHoverColor": "#000000",
		"contactBackgroundColor": "#112233", "contactTextColor": "#FFFFFF", "contactHoverColor": "#000000",
		"navbarOfferBoxUrl": "https://shop.example.com/offer"}
	for i := 0; i+1 < len(kv); i += 2 {
		n[kv[i].(string)] = kv[i+1]
	}
	return n
}

func widgetBar(kv ...any) map[string]any {
	b := map[string]any{"floattingBarOrientation": "top", "floattingBarBackgroundColor": "#FFFFFF", "floattingBarBorderColor": "#000000",
		"floattingBarTextColor": "#000000", "floattingBarCtaButtonColor": "#FF0000", "floattingBarCtaButtonHoverColor": "#AA0000",
		"floattingBarCtaButtonTextColor": "#FFFFFF", "floattingBarCtaButtonTextHoverColor": "#EEEEEE",
		"floattingBarCtaButtonLink": "https://shop.example.com/"}
	for i := 0; i+1 < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return b
}

func TestGraphAdminWidgets(t *testing.T) {
	t.Parallel()
	f := newAdminFixture(t)

	t.Run("OK", func(t *testing.T) {
		p := f.mustMutate(t, f.shopTok, "createMarketingWidgets", adminCreateWidgets, in("navbar", widgetNavbar()))
		key := str(t, p, "marketingWidgets", "key")
		WantJSON(t, []byte(jsonOf(t, p["marketingWidgets"])), `{"key":"`+key+`","purchaseUrl":"https://shop.example.com/",
			"navbar":{"navbarOrientation":"vertical","navbarSide":"left","navbarPosition":40,"offerBackgroundColor":"#112233",
			"navbarOfferBoxUrl":"https://shop.example.com/offer"},"floattingBar":null}`)
		status, body := f.rest(t, "", "/api/setup_marketing_widgets/"+key+"/")
		if status != 200 || body["navbar"].(map[string]any)["navbar_position"] != 40.0 || body["floatting_bar"] != nil {
			t.Errorf("REST widgets: %d %v", status, body)
		}

		p = f.mustMutate(t, f.shopTok, "updateMarketingWidgets", adminUpdateWidgets, in("floattingBar", widgetBar()))
		WantJSON(t, []byte(jsonOf(t, p["marketingWidgets"])), `{"key":"`+key+`","purchaseUrl":"https://shop.example.com/","navbar":null,
			"floattingBar":{"floattingBarOrientation":"top","floattingBarCtaButtonLink":"https://shop.example.com/"}}`)
		_, body = f.rest(t, "", "/api/setup_marketing_widgets/"+key+"/")
		if body["navbar"] != nil || body["floatting_bar"].(map[string]any)["floatting_bar_orientation"] != "top" {
			t.Errorf("REST widgets after update = %v", body)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		p, errs := f.mutate(t, f.otherTok, "createMarketingWidgets", adminCreateWidgets, in(
			"navbar", widgetNavbar("navbarSide", "top", "navbarPosition", 101, "offerTextColor", "white", "navbarOfferBoxUrl", "ftp://x"),
			"floattingBar", widgetBar("floattingBarOrientation", "left")))
		wantUserErrors(t, p, errs, `[
			{"field":["navbar","navbarSide"],"code":"invalid","message":"A vertical navbar sits on the left or right edge."},
			{"field":["navbar","navbarPosition"],"code":"max_value","message":"Ensure this value is between 0 and 100."},
			{"field":["navbar","offerTextColor"],"code":"invalid","message":"Enter a colour in the form #RRGGBB."},
			{"field":["navbar","navbarOfferBoxUrl"],"code":"invalid","message":"Enter a valid URL."},
			{"field":["floattingBar","floattingBarOrientation"],"code":"invalid","message":"\"left\" is not a valid choice."}]`)
		// shop configured its widgets in OK: a second configuration is refused.
		p, errs = f.mutate(t, f.shopTok, "createMarketingWidgets", adminCreateWidgets, in())
		wantUserErrors(t, p, errs, `[{"field":[],"code":"unique","message":"This partner already has marketing widgets: update them."}]`)
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		// market has no widgets to update.
		p, errs := f.mutate(t, f.marketTok, "updateMarketingWidgets", adminUpdateWidgets, in())
		wantRefused(t, p, errs, "NOT_FOUND")
		p, errs = f.mutate(t, f.otherTok, "updateMarketingWidgets", adminUpdateWidgets, in("partnerId", gid(f.shop.ID)))
		wantRefused(t, p, errs, "NOT_FOUND")
	})

	t.Run("ErrUnauthenticated", func(t *testing.T) {
		p, errs := f.mutate(t, "", "createMarketingWidgets", adminCreateWidgets, in())
		wantRefused(t, p, errs, "UNAUTHENTICATED")
	})

	t.Run("Staff", func(t *testing.T) {
		p := f.mustMutate(t, f.staffTok, "createMarketingWidgets", adminCreateWidgets, in("partnerId", gid(f.market.ID),
			"floattingBar", widgetBar("floattingBarOrientation", "bottom")))
		key := str(t, p, "marketingWidgets", "key")
		if p["marketingWidgets"].(map[string]any)["purchaseUrl"] != "https://market.example.com/" {
			t.Errorf("purchaseUrl = %v", p["marketingWidgets"])
		}
		f.mustMutate(t, f.staffTok, "updateMarketingWidgets", adminUpdateWidgets, in("partnerId", gid(f.market.ID), "navbar", widgetNavbar()))
		_, body := f.rest(t, "", "/api/setup_marketing_widgets/"+key+"/")
		if body["navbar"] == nil || body["floatting_bar"] != nil {
			t.Errorf("REST widgets = %v", body)
		}
	})
}

// Managing a catalogue needs manage_masteradmin: an account of a partner
// without it is FORBIDDEN, before any record is looked up, and nothing is
// written.
func TestGraphCatalogueWritesNeedPermission(t *testing.T) {
	t.Parallel()
	f := newAdminFixture(t)
	event := f.mustEvent(t, f.shopTok)
	voucher := &catalogue.VoucherPrototype{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Bon"}}
	gcMust(t, f.protos.CreateVoucherPrototype(context.Background(), voucher))
	before := f.catalogueDigest(t)
	for _, try := range []struct {
		field, query string
		input        map[string]any
	}{
		{"createEvent", adminCreateEvent, in("name", texts("fr", "Concert"))},
		{"updateEvent", adminUpdateEvent, in("id", event, "name", texts("fr", "X"))},
		{"updateEvent", adminUpdateEvent, in("id", "999999", "name", texts("fr", "X"))}, // unknown: the same answer
		{"createGiftcardPrototype", adminCreateGiftcard, in("title", texts("fr", "Carte"), "customizedAmount", true)},
		{"fileVoucherPrototype", adminFileVoucher, in("id", gid(voucher.ID), "themeIds", []string{})},
		{"updateLegalInformation", adminLegal, in("agencyName", "Mine")},
		{"updateRefundWithdrawalTerms", adminRefundTerms, in("terms", texts("fr", "Aucun"))},
		{"createWorkshopCategory", adminCreateCategory, in("name", texts("fr", "Cours"), "price", "10")},
	} {
		t.Run(try.field, func(t *testing.T) {
			p, errs := f.mutate(t, f.readerTok, try.field, try.query, try.input)
			wantRefused(t, p, errs, "FORBIDDEN")
		})
	}
	if after := f.catalogueDigest(t); after != before {
		t.Errorf("refused mutations changed the catalogue")
	}
}

// catalogueDigest is a digest of the catalogue tables the mutations above
// write.
func (f *adminFixture) catalogueDigest(t *testing.T) string {
	t.Helper()
	var digest string
	gcMust(t, f.db.NewRaw(`SELECT md5(concat_ws('|',
		(SELECT string_agg(e::text, ',' ORDER BY e.id) FROM events e),
		(SELECT string_agg(g::text, ',' ORDER BY g.id) FROM giftcard_prototypes g),
		(SELECT string_agg(v::text, ',' ORDER BY v.id) FROM voucher_prototypes v),
		(SELECT string_agg(c::text, ',' ORDER BY c.id) FROM workshop_categories c),
		(SELECT string_agg(p::text, ',' ORDER BY p.id) FROM partners p),
		(SELECT string_agg(l::text, ',' ORDER BY l.partner_id) FROM partner_legal_information l),
		(SELECT string_agg(r::text, ',' ORDER BY r.partner_id) FROM partner_refund_withdrawal_terms r)))`).Scan(context.Background(), &digest))
	return digest
}

// A refused mutation nulls its own payload only: the mutations before it
// in the document ran and committed, and their answers are kept.
func TestGraphRefusedMutationKeepsTheOthers(t *testing.T) {
	t.Parallel()
	f := newAdminFixture(t)
	event := f.mustEvent(t, f.shopTok)
	data, errs := f.ask(t, "", f.otherTok, `mutation($e: ID!) {
		addPartnerLabel(input: {name: "Clef verte", logo: "https://cdn.example.com/cv.png"}) { userErrors { field } errors { field } }
		updateEvent(input: {id: $e, name: [{language: FR, text: "Pris"}]}) { event { id: legacyId } } }`, map[string]any{"e": event})
	wantErrorCode(t, errs, "NOT_FOUND")
	WantJSON(t, data, `{"addPartnerLabel": {"userErrors": [], "errors": []}, "updateEvent": null}`)
	var labels int
	gcMust(t, f.db.NewRaw(`SELECT count(*) FROM partner_labels WHERE partner_id = ? AND name = 'Clef verte'`, f.other.ID).
		Scan(context.Background(), &labels))
	if labels != 1 {
		t.Errorf("the first mutation's label: %d rows, want 1", labels)
	}
}
