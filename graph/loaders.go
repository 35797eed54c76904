package graph

// Per-request dataloaders (github.com/vikstrous/dataloadgen). Each gathers
// the keys the field resolvers of one request ask for within loaderWait and
// reads them with one call to a service batch method, which answers in key
// order and keeps tenancy in the domain. A request's number of statements
// therefore depends on the shape of its query, not on the number of rows it
// returns.

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/vikstrous/dataloadgen"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/media"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
)

// loaderWait is how long a loader gathers keys before it reads them. The
// resolvers of one list's items run concurrently and ask within
// microseconds; each nesting level of a query waits this long once.
const loaderWait = 5 * time.Millisecond

// loaders are one request's loaders. Their caches live as long as the
// request, and each batch runs with the context of the request (its caller
// and X-Partner-Domain).
type loaders struct {
	partners         *dataloadgen.Loader[int64, *catalogue.PartnerListing]
	partnerNames     *dataloadgen.Loader[int64, *catalogue.PartnerListing] // without profiles (partnerLoader)
	boxOffers        *dataloadgen.Loader[pageKey, *domain.Page[*catalogue.BoxOffer]]
	boxImages        *dataloadgen.Loader[int64, []string]
	events           *dataloadgen.Loader[int64, *catalogue.EventView]
	eventSlots       *dataloadgen.Loader[pageKey, *domain.Page[*catalogue.EventSlotView]]
	workshops        *dataloadgen.Loader[int64, *catalogue.WorkshopView]
	workshopSessions *dataloadgen.Loader[pageKey, *domain.Page[*catalogue.WorkshopSessionView]]

	adminPrototypes  *dataloadgen.Loader[int64, *prototypes.AdminVoucherPrototype]
	adminUniverses   *dataloadgen.Loader[int64, *catalogue.Universe]
	prototypeOptions *dataloadgen.Loader[pageKey, *domain.Page[*prototypes.PrototypeOptionLink]]
	optionCategories *dataloadgen.Loader[int64, *prototypes.OptionCategory]
	categoryOptions  *dataloadgen.Loader[pageKey, *domain.Page[*vouchers.VoucherOption]]

	// Relations between the areas (relations.graphqls) and a box's
	// universes.
	options       *dataloadgen.Loader[int64, *vouchers.VoucherOption]
	adminPartners *dataloadgen.Loader[int64, *domain.Partner]
	media         *dataloadgen.Loader[int64, *media.Media]
	boxUniverses  *dataloadgen.Loader[int64, *catalogue.Universe]

	// The network area's records and nested lists (network.graphqls).
	networkGiftcards *dataloadgen.Loader[int64, *network.Giftcard]
	cardUsages       *dataloadgen.Loader[pageKey, *domain.Page[*network.Usage]]
	cardMovements    *dataloadgen.Loader[pageKey, *domain.Page[*network.Movement]]
	cardHolds        *dataloadgen.Loader[pageKey, *domain.Page[*network.Hold]]
	networkPartners  *dataloadgen.Loader[network.PartnerKey, *network.Partner]
	networkOffers    *dataloadgen.Loader[pageKey, *domain.Page[*network.Offer]]
	voucherUsages    *dataloadgen.Loader[pageKey, *domain.Page[*network.VoucherUsage]]

	// The payment hub's relations: to a payment-hub partner (of payments,
	// payout and payment requests, wallets, KYC documents, activations),
	// and a payment's transactions and refunds.
	paymentPartners     *dataloadgen.Loader[uuid.UUID, *payments.Partner]
	paymentTransactions *dataloadgen.Loader[uuid.UUID, []*payments.Transaction]
	paymentRefunds      *dataloadgen.Loader[uuid.UUID, []*payments.Refund]
}

func newLoaders(r *Resolver) *loaders {
	d := loaderWait
	if r.LoaderWait > 0 {
		d = r.LoaderWait
	}
	wait := dataloadgen.WithWait(d)
	return &loaders{
		partners:         dataloadgen.NewLoader(byID(r.PartnerCatalog.PartnersByID), wait),
		partnerNames:     dataloadgen.NewLoader(byID(r.PartnerCatalog.PartnerNamesByID), wait),
		boxOffers:        dataloadgen.NewLoader(byPage(r.BoxCatalog.BoxOffers), wait),
		boxImages:        dataloadgen.NewLoader(byID(r.BoxCatalog.BoxImages), wait),
		events:           dataloadgen.NewLoader(byID(r.EventCatalog.EventsByID), wait),
		eventSlots:       dataloadgen.NewLoader(byPage(r.EventCatalog.SlotsOfEvents), wait),
		workshops:        dataloadgen.NewLoader(byID(r.WorkshopCatalog.WorkshopsByID), wait),
		workshopSessions: dataloadgen.NewLoader(byPage(r.WorkshopCatalog.SessionsOfWorkshops), wait),

		adminPrototypes:  dataloadgen.NewLoader(byID(r.AdminPrototypes.VoucherPrototypesByID), wait),
		adminUniverses:   dataloadgen.NewLoader(byID(r.AdminPrototypes.UniversesByID), wait),
		prototypeOptions: dataloadgen.NewLoader(byPage(r.AdminPrototypes.OptionsOfPrototypes), wait),
		optionCategories: dataloadgen.NewLoader(byID(r.AdminPrototypes.OptionCategoriesByID), wait),
		categoryOptions:  dataloadgen.NewLoader(byPage(r.AdminPrototypes.OptionsOfCategories), wait),

		options:       dataloadgen.NewLoader(byID(r.AdminPrototypes.OptionsByID), wait),
		adminPartners: dataloadgen.NewLoader(byID(r.Accounts.AdminPartnersByID), wait),
		media:         dataloadgen.NewLoader(byID(r.MediaLibrary.MediaByID), wait),
		boxUniverses:  dataloadgen.NewLoader(byID(r.BoxCatalog.UniversesByID), wait),

		networkGiftcards: dataloadgen.NewLoader(byID(r.NetworkGiftcards.GiftcardsByID), wait),
		cardUsages:       dataloadgen.NewLoader(byPage(r.NetworkGiftcards.UsagesOfCards), wait),
		cardMovements:    dataloadgen.NewLoader(byPage(r.NetworkGiftcards.MovementsOfCards), wait),
		cardHolds:        dataloadgen.NewLoader(byPage(r.NetworkGiftcards.HoldsOfCards), wait),
		networkPartners:  dataloadgen.NewLoader(byID(r.NetworkPartners.NetworkPartnersByKey), wait),
		networkOffers:    dataloadgen.NewLoader(byPage(r.NetworkVouchers.OffersOfBoxes), wait),
		voucherUsages:    dataloadgen.NewLoader(byPage(r.NetworkVouchers.UsagesOfVouchers), wait),

		paymentPartners:     dataloadgen.NewLoader(byID(r.PaymentPartners.PartnersByUUID), wait),
		paymentTransactions: dataloadgen.NewLoader(byID(r.Payments.TransactionsByPayment), wait),
		paymentRefunds:      dataloadgen.NewLoader(byID(r.Payments.RefundsByPayment), wait),
	}
}

type loadersKey struct{}

// withLoaders gives each request its own loaders.
func withLoaders(r *Resolver, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ctx := context.WithValue(req.Context(), loadersKey{}, newLoaders(r))
		next.ServeHTTP(w, req.WithContext(ctx))
	})
}

// loadersFrom returns the request's loaders. Without them (a handler not
// made by NewHandler) it panics: the resolver fails as an internal error,
// rather than reading row by row unnoticed.
func loadersFrom(ctx context.Context) *loaders {
	l, ok := ctx.Value(loadersKey{}).(*loaders)
	if !ok {
		panic("graph: no loaders in the request context; serve the graph through NewHandler")
	}
	return l
}

// byID adapts a batch method that answers in key order: an error fails
// every key of the batch.
func byID[K comparable, V any](fetch func(context.Context, []K) ([]V, error)) func(context.Context, []K) ([]V, []error) {
	return func(ctx context.Context, ids []K) ([]V, []error) {
		values, err := fetch(ctx, ids)
		if err != nil {
			return nil, []error{err}
		}
		return values, nil
	}
}

// byPage adapts a batch method that reads the same page of many parents'
// lists: keys asking for the same page (as the items of one list do) are
// read with one call.
func byPage[T any](fetch func(context.Context, []int64, domain.PageRequest) ([]*domain.Page[T], error)) func(context.Context, []pageKey) ([]*domain.Page[T], []error) {
	return func(ctx context.Context, keys []pageKey) ([]*domain.Page[T], []error) {
		var order []domain.PageRequest
		byReq := map[domain.PageRequest][]int{} // indexes into keys
		for i, k := range keys {
			if _, seen := byReq[k.page]; !seen {
				order = append(order, k.page)
			}
			byReq[k.page] = append(byReq[k.page], i)
		}
		out := make([]*domain.Page[T], len(keys))
		for _, req := range order {
			idx := byReq[req]
			ids := make([]int64, len(idx))
			for j, i := range idx {
				ids[j] = keys[i].id
			}
			pages, err := fetch(ctx, ids, req)
			if err != nil {
				return nil, []error{err}
			}
			for j, i := range idx {
				out[i] = pages[j]
			}
		}
		return out, nil
	}
}
