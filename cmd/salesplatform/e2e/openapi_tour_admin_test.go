package e2e

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"testing"
)

// adminTour is the administration's part of TestOpenAPITour, as staff:
// media, vouchers and giftcards, voucher prototypes and their options.
var adminTour = []tourStep{tourMedia, tourVouchers, tourPrototypes}

// tourMedia reads media, uploads one and renames it.
func tourMedia(tr *tour) {
	t, call, list, id, staff, admin := tr.t, tr.call, tr.list, tourID, tr.staff, tr.admin
	media := list(call("GET", "/api/media/", "", admin...))
	for _, m := range media[:min(2, len(media))] {
		call("GET", "/api/media/"+id(m["id"])+"/", "", admin...)
		call("GET", "/media/"+m["uuid"].(string), "")
	}
	var png bytes.Buffer
	if err := pngEncode(&png); err != nil {
		t.Fatal(err)
	}
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "tour.png")
	fw.Write(png.Bytes())
	mw.WriteField("name", "Tour")
	if pu, ok := firstPartnerUUID(t, call, staff); ok {
		mw.WriteField("partner_uuid", pu)
	}
	mw.Close()
	up := call("POST", "/api/media/", form.String(), append(admin, "Content-Type", mw.FormDataContentType())...)
	if up.Status == 201 {
		call("PATCH", "/api/media/"+id(up.JSON(t)["id"])+"/", `{"name": "Tour renamed"}`, admin...)
	}
	call("POST", "/api/media/", `{}`, admin...) // not multipart: 415
}

// tourVouchers reads vouchers, moves the paid ones, and reads giftcards.
func tourVouchers(tr *tour) {
	call, list, id, admin := tr.call, tr.list, tourID, tr.admin
	vouchers := list(call("GET", "/api/vouchers/?ordering=-creation_date", "", admin...))
	for _, v := range vouchers {
		code := v["code"].(string)
		call("GET", "/api/vouchers/"+code+"/", "", admin...)
		if v["state"] == "paid" {
			call("PATCH", "/api/vouchers/"+code+"/", `{"state": "using"}`, admin...)
			call("PATCH", "/api/vouchers/"+code+"/", `{"state": "nonsense"}`, admin...)
		}
	}
	call("GET", "/api/vouchers/?ordering=nope", "", admin...)
	call("GET", "/api/vouchers/", "")
	for _, g := range list(call("GET", "/api/giftcards/", "", admin...)) {
		call("GET", "/api/giftcards/"+id(g["id"])+"/", "", admin...)
		call("GET", "/api/giftcards_by_code/"+g["code"].(string)+"/", "", admin...)
	}
}

// tourPrototypes reads prototypes and their options, copies the first
// one, and gives it an option and a category.
func tourPrototypes(tr *tour) {
	t, call, list, id, admin := tr.t, tr.call, tr.list, tourID, tr.admin
	protos := list(call("GET", "/api/voucher_prototypes/", "", admin...))
	for i, p := range protos {
		pid := id(p["id"])
		call("GET", "/api/voucher_prototypes/"+pid+"/", "", admin...)
		options := list(call("GET", "/api/voucher_prototypes/"+pid+"/options/", "", admin...))
		if i > 0 {
			continue
		}
		body := map[string]any{}
		for k, v := range p {
			if k != "id" && k != "partner" && k != "nb_orders" {
				body[k] = v
			}
		}
		body["name_en"] = "Tour copy"
		b, _ := json.Marshal(body)
		created := call("POST", "/api/voucher_prototypes/", string(b), admin...)
		if created.Status == 201 {
			nid := id(created.JSON(t)["id"])
			call("PUT", "/api/voucher_prototypes/"+nid+"/", string(b), admin...)
			call("PATCH", "/api/voucher_prototypes/"+nid+"/", `{"ranking": 7}`, admin...)
		}
		call("POST", "/api/voucher_prototypes/", `{"type": "nope"}`, admin...)
		if len(options) > 0 {
			o := options[0]["option"].(map[string]any)
			ob := map[string]any{"partner_uuid": o["partner_uuid"], "price": 10, "selling_price": 12,
				"countable": true, "services_info": []any{}, "voucher_prototypes": []any{p["id"]}}
			for _, lang := range []string{"fr", "en", "es", "it", "de", "nl", "ca", "pt"} {
				ob["name_"+lang], ob["description_"+lang] = "Tour option "+lang, ""
			}
			b, _ := json.Marshal(ob)
			call("POST", "/api/options/", string(b), admin...)
			cb, _ := json.Marshal(map[string]any{"partner_uuid": o["partner_uuid"], "name_en": "Tour category"})
			call("POST", "/api/option_categories/", string(cb), admin...)
		}
	}
}

// firstPartnerUUID is the uuid of a partner staff can upload media for.
func firstPartnerUUID(t *testing.T, call func(string, string, string, ...string) Response, staff string) (string, bool) {
	t.Helper()
	res := call("GET", "/api/voucher_prototypes/", "", "Authorization", staff)
	var page struct {
		Results []struct {
			PartnerUUID string `json:"partner_uuid"`
		} `json:"results"`
	}
	if json.Unmarshal([]byte(res.Body), &page) != nil || len(page.Results) == 0 {
		return "", false
	}
	return page.Results[0].PartnerUUID, true
}
