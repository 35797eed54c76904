// Command apiclientcheck runs beside the Go client that oapi-codegen
// generates from rest/openapi/openapi.yaml into the same package
// (TestGeneratedClients copies it there): it calls a running server with
// the client, wants each answer decoded into the documented type, decodes
// it again refusing any field the type lacks, and writes the answers to a
// directory for the TypeScript check (.ci/openapi-typescript).
//
// Usage: apiclientcheck BASE_URL ANSWERS_DIR STAFF_TOKEN SITE,SITE,... WIDGET_KEY
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

var problems []string

func fail(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

// must stops on a call that got no answer.
func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// answer checks one answer: 200, decoded by the client (typed is its
// JSON200), and decoded strictly into T; it is written to
// ANSWERS_DIR/name.json.
func answer[T any](dir, name string, res *http.Response, body []byte, typed *T) *T {
	if res.StatusCode != http.StatusOK || typed == nil {
		fail("%s: %d, not decoded by the client: %.300s", name, res.StatusCode, body)
		return nil
	}
	var strict T
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&strict); err != nil {
		fail("%s: the answer has what the document lacks: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), body, 0o644); err != nil {
		fail("%s: %v", name, err)
	}
	return typed
}

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: apiclientcheck BASE_URL ANSWERS_DIR STAFF_TOKEN SITE,SITE,... WIDGET_KEY")
		os.Exit(2)
	}
	base, dir, token, sites, widgetKey := os.Args[1], os.Args[2], os.Args[3], strings.Split(os.Args[4], ","), os.Args[5]
	ctx := context.Background()
	c, err := NewClientWithResponses(base)
	must(err)
	staff := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Token "+token)
		return nil
	}

	// The public catalogue of the first site.
	site := sites[0]
	pl, err := c.PartnersListWithResponse(ctx, &PartnersListParams{XPartnerDomain: &site})
	must(err)
	if page := answer(dir, "partner_page", pl.HTTPResponse, pl.Body, pl.JSON200); page != nil {
		if len(page.Results) == 0 {
			fail("partner_page: no partner")
		} else {
			p, err := c.PartnersRetrieveWithResponse(ctx, strconv.Itoa(page.Results[0].Id), &PartnersRetrieveParams{XPartnerDomain: &site})
			must(err)
			answer(dir, "partner", p.HTTPResponse, p.Body, p.JSON200)
		}
	}
	v, err := c.ProductInformationVouchersListWithResponse(ctx, &ProductInformationVouchersListParams{XPartnerDomain: &site})
	must(err)
	answer(dir, "vouchers_product_information", v.HTTPResponse, v.Body, v.JSON200)
	w, err := c.SetupMarketingWidgetsRetrieveWithResponse(ctx, widgetKey)
	must(err)
	answer(dir, "widgets", w.HTTPResponse, w.Body, w.JSON200)

	// A network voucher box, of the first site that has one.
	boxes := false
	for _, s := range sites {
		bl, err := c.NetworkVouchersBoxesListWithResponse(ctx, &NetworkVouchersBoxesListParams{XPartnerDomain: &s})
		must(err)
		page := answer(dir, "box_page", bl.HTTPResponse, bl.Body, bl.JSON200)
		if page == nil || len(page.Results) == 0 {
			continue
		}
		b, err := c.NetworkVouchersBoxesRetrieveWithResponse(ctx, strconv.Itoa(page.Results[0].Id), &NetworkVouchersBoxesRetrieveParams{XPartnerDomain: &s})
		must(err)
		answer(dir, "box_detail", b.HTTPResponse, b.Body, b.JSON200)
		boxes = true
		break
	}
	if !boxes {
		fail("no site has network voucher boxes")
	}

	// The payment hub, as staff read it.
	pp, err := c.PaymentHubPaymentsListWithResponse(ctx, &PaymentHubPaymentsListParams{}, staff)
	must(err)
	if page := answer(dir, "payment_page", pp.HTTPResponse, pp.Body, pp.JSON200); page != nil {
		if len(page.Results) == 0 {
			fail("payment_page: no payment")
		} else {
			p, err := c.PaymentHubPaymentsRetrieveWithResponse(ctx, page.Results[0].Id.String(), staff)
			must(err)
			answer(dir, "payment", p.HTTPResponse, p.Body, p.JSON200)
		}
	}

	if len(problems) > 0 {
		fmt.Fprintln(os.Stderr, strings.Join(problems, "\n"))
		os.Exit(1)
	}
}
