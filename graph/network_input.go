package graph

import (
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/graph/model"
)

// The network area's inputs, mapped onto the service's. The schema gives
// amounts and dates as strings: one that does not read is refused on its
// field with the message REST answers, among the service's other errors.

// decimalOf reads an amount string.
func decimalOf(s, field string, r *domain.Refusals) domain.Optional[decimal.Decimal] {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil || strings.ContainsAny(s, "eE") {
		r.Refuse(domain.VInvalid, domain.MsgDecimal, field)
		return domain.Optional[decimal.Decimal]{}
	}
	return domain.Some(d)
}

// optDecimal is decimalOf of an optional amount.
func optDecimal(o graphql.Omittable[*string], field string, r *domain.Refusals) domain.Optional[decimal.Decimal] {
	if s := opt(o); s != nil {
		return decimalOf(*s, field, r)
	}
	return optionalOf(o, func(string) decimal.Decimal { return decimal.Zero })
}

// maxLocalTime bounds the text of a date-time: longer is no date.
const maxLocalTime = 64

// localTimeOf reads a date-time or a day (network.ParseLocalTime).
func localTimeOf(s, field string, r *domain.Refusals) domain.Optional[network.LocalTime] {
	l, ok := network.ParseLocalTime(s)
	if !ok || len(s) > maxLocalTime {
		r.Refuse(domain.VInvalid, network.MsgDateTime, field)
		return domain.Optional[network.LocalTime]{}
	}
	return domain.Some(l)
}

// optLocalTime is localTimeOf of an optional date.
func optLocalTime(o graphql.Omittable[*string], field string, r *domain.Refusals) domain.Optional[network.LocalTime] {
	if s := opt(o); s != nil {
		return localTimeOf(*s, field, r)
	}
	return optionalOf(o, func(string) network.LocalTime { return network.LocalTime{} })
}

// optDay reads a calendar day: YYYY-MM-DD, or an RFC 3339 date-time whose
// date in its own offset is the day.
func optDay(o graphql.Omittable[*string], field string, r *domain.Refusals) domain.Optional[time.Time] {
	s := opt(o)
	if s == nil {
		return optionalOf(o, func(string) time.Time { return time.Time{} })
	}
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(*s))
	if err != nil {
		at, err2 := time.Parse(time.RFC3339, strings.TrimSpace(*s))
		if err2 != nil {
			r.Refuse(domain.VInvalid, domain.MsgDayFormat, field)
			return domain.Optional[time.Time]{}
		}
		t = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	}
	return domain.Some(t)
}

// partnerRefOf names the partner of a use, a hold or a voucher usage: by
// its source id, or by partnerId, a NetworkPartner's global id (its
// partner), a Partner's (its uuid, which the service looks up), a
// CataloguePartner's or a record id. It looks nothing up itself.
// Errors: NOT_FOUND for a partnerId of another type or malformed.
func partnerRefOf(sourceID, partnerID graphql.Omittable[*string]) (network.PartnerRef, error) {
	ref := network.PartnerRef{PartnerSourceID: optional(sourceID)}
	id := opt(partnerID)
	if id == nil {
		return ref, nil
	}
	typ, key, ok := decodeGlobalID(*id)
	switch {
	case ok && typ == "NetworkPartner":
		k, valid := parsePartnerKey(key)
		if !valid {
			return ref, domain.ErrNotFound
		}
		ref.PartnerID = domain.Some(k.PartnerID)
	case ok && typ == "Partner":
		u, err := uuid.Parse(key)
		if err != nil {
			return ref, domain.ErrNotFound
		}
		ref.PartnerUUID = &u
	default:
		n, err := recordIDOf(*id, "CataloguePartner")
		if err != nil {
			return ref, err
		}
		ref.PartnerID = domain.Some(n)
	}
	return ref, nil
}

func customerInput(c *model.NetworkGiftcardCustomerInput) network.CustomerInput {
	return network.CustomerInput{FirstName: domain.Some(c.FirstName), LastName: domain.Some(c.LastName), Email: domain.Some(c.Email)}
}

func lower[T ~string](v T) string { return strings.ToLower(string(v)) }

func createNetworkGiftcardInput(in model.CreateNetworkGiftcardInput, marketplace *uuid.UUID) network.GiftcardInput {
	out := network.GiftcardInput{Status: domain.Some(lower(in.Status)), FromGifter: domain.Some(in.FromGifter),
		Giftee: optionalOf(in.Giftee, func(c model.NetworkGiftcardCustomerInput) network.CustomerInput { return customerInput(&c) }), IsSplittable: optional(in.IsSplittable), IsActive: optional(in.IsActive),
		Language: optionalOf(in.Language, lower[model.Language]), Theme: optional(in.Theme)}
	if in.Gifter != nil {
		out.Gifter = domain.Some(customerInput(in.Gifter))
	}
	if marketplace != nil {
		out.MarketplaceUUID = domain.Some(*marketplace)
	}
	out.Value = decimalOf(in.Value, "value", &out.Refusals)
	out.ActivationDate = localTimeOf(in.ActivationDate, "activation_date", &out.Refusals)
	out.ExpirationDate = localTimeOf(in.ExpirationDate, "expiration_date", &out.Refusals)
	return out
}

func noticeOf(send graphql.Omittable[*bool], email graphql.Omittable[*string]) network.Notice {
	return network.Notice{Notify: optional(send), GifteeEmail: optional(email)}
}

func useNetworkGiftcardInput(in model.UseNetworkGiftcardInput) (network.UseInput, error) {
	ref, err := partnerRefOf(in.PartnerSourceID, in.PartnerID)
	out := network.UseInput{Code: in.Code, PartnerRef: ref, Comment: optional(in.Comment),
		ReservationID: optional(in.ReservationID), Notice: noticeOf(in.SendUsageNotificationEmail, in.GifteeEmail)}
	out.Value = decimalOf(in.Value, "value", &out.Refusals)
	out.CreationDate = localTimeOf(in.CreationDate, "creation_date", &out.Refusals)
	out.FreezePayoutDate = optLocalTime(in.FreezePayoutDate, "freeze_payout_date", &out.Refusals)
	return out, err
}

func holdNetworkGiftcardInput(in model.HoldNetworkGiftcardInput) (network.HoldInput, error) {
	ref, err := partnerRefOf(in.PartnerSourceID, in.PartnerID)
	out := network.HoldInput{Code: in.Code, PartnerRef: ref, ReservationID: domain.Some(in.ReservationID),
		ExpiresIn: optionalOf(in.ExpiresIn, func(n int) int64 { return int64(n) })}
	out.Amount = decimalOf(in.Amount, "amount", &out.Refusals)
	return out, err
}

func captureNetworkGiftcardInput(in model.CaptureNetworkGiftcardHoldInput) network.CaptureInput {
	out := network.CaptureInput{Code: in.Code, ReservationID: in.ReservationID, Comment: optional(in.Comment),
		Notice: noticeOf(in.SendUsageNotificationEmail, in.GifteeEmail)}
	out.Value = optDecimal(in.Value, "value", &out.Refusals)
	out.CreationDate = optLocalTime(in.CreationDate, "creation_date", &out.Refusals)
	out.FreezePayoutDate = optLocalTime(in.FreezePayoutDate, "freeze_payout_date", &out.Refusals)
	return out
}

func adjustNetworkGiftcardInput(in model.AdjustNetworkGiftcardInput) network.AdjustInput {
	out := network.AdjustInput{Code: in.Code, Reason: domain.Some(in.Reason)}
	out.Amount = decimalOf(in.Amount, "amount", &out.Refusals)
	return out
}

func linksOf(nv, ngc graphql.Omittable[*bool]) network.Links {
	return network.Links{LinkToNVSettings: optional(nv), LinkToNGCSettings: optional(ngc)}
}

func createNetworkPartnerInput(in model.CreateNetworkPartnerInput, marketplace *uuid.UUID) network.PartnerInput {
	out := network.PartnerInput{SourceID: optional(in.SourceID), Name: domain.Some(in.Name),
		CommercialName: domain.Some(in.CommercialName), ShortName: domain.Some(in.ShortName),
		CompanyType: optionalOf(in.CompanyType, lower[model.NetworkCompanyType]), SiretNumber: domain.Some(in.SiretNumber),
		LegalRepresentativeFirstName: domain.Some(in.LegalRepresentativeFirstName),
		LegalRepresentativeLastName:  domain.Some(in.LegalRepresentativeLastName), HQAddressLine1: domain.Some(in.HqAddressLine1),
		HQAddressLine2: optional(in.HqAddressLine2), HQPostalCode: domain.Some(in.HqPostalCode), HQCity: domain.Some(in.HqCity),
		HQCountry: domain.Some(in.HqCountry), RCS: domain.Some(in.Rcs), APE: domain.Some(in.Ape), VATID: domain.Some(in.VatID),
		AgencyEmail: domain.Some(in.AgencyEmail), AgencyPhone: optional(in.AgencyPhone), Website: domain.Some(in.Website),
		Links: linksOf(in.LinkToNvSettings, in.LinkToNgcSettings)}
	if marketplace != nil {
		out.MarketplaceUUID = domain.Some(*marketplace)
	}
	if tags, ok := in.PartnerTags.ValueOK(); ok {
		out.PartnerTags = domain.Null[[]network.TagInput]()
		if tags != nil {
			list := make([]network.TagInput, len(tags))
			for i, t := range tags {
				list[i].Tag = domain.Some(t)
			}
			out.PartnerTags = domain.Some(list)
		}
	}
	out.LegalRepresentativeBirthday = optDay(in.LegalRepresentativeBirthday, "legal_representative_birthday", &out.Refusals)
	return out
}

// networkPartnerStatuses are the statuses an update sets, by enum value.
var networkPartnerStatuses = map[model.NetworkPartnerStatus]string{
	model.NetworkPartnerStatusInactive: domain.PartnerStatusInactive,
	model.NetworkPartnerStatusNetwork:  domain.PartnerStatusNetwork,
}

// updateNetworkPartnerInput maps the update; its referrer is named as a
// use's partner (partnerRefOf), null clearing it.
func updateNetworkPartnerInput(in model.UpdateNetworkPartnerInput, marketplace *uuid.UUID) (network.PartnerUpdate, error) {
	out := network.PartnerUpdate{SourceID: optional(in.SourceID), SiretNumber: optional(in.SiretNumber),
		Status:        optionalOf(in.Status, func(s model.NetworkPartnerStatus) string { return networkPartnerStatuses[s] }),
		HideFromStats: optional(in.HideFromStats), ThirdPartySalesOnly: optional(in.ThirdPartySalesOnly),
		Links: linksOf(in.LinkToNvSettings, in.LinkToNgcSettings)}
	if marketplace != nil {
		out.MarketplaceUUID = domain.Some(*marketplace)
	}
	switch v, ok := in.ReferrerID.ValueOK(); {
	case ok && v == nil:
		out.Referrer = domain.Null[int64]()
	case ok:
		ref, err := partnerRefOf(graphql.Omittable[*string]{}, in.ReferrerID)
		if err != nil {
			return out, err
		}
		out.Referrer, out.ReferrerUUID = ref.PartnerID, ref.PartnerUUID
	}
	return out, nil
}

func recordNetworkVoucherUsageInput(in model.RecordNetworkVoucherUsageInput) (network.UsageInput, error) {
	ref, err := partnerRefOf(in.PartnerSourceID, in.PartnerID)
	out := network.UsageInput{Code: in.Code, PartnerRef: ref, Comment: optional(in.Comment)}
	out.CreationDate = localTimeOf(in.CreationDate, "creation_date", &out.Refusals)
	return out, err
}
