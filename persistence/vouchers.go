package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/vouchers"
)

// VoucherAdminStore is the domain.VoucherAdminStore on PostgreSQL. A
// voucher is read in a fixed number of queries whatever its options: the
// vouchers, then their options, option services, included options,
// coupons and state changes, each for the whole page at once.
type VoucherAdminStore struct{ db bun.IDB }

var _ vouchers.VoucherAdminStore = (*VoucherAdminStore)(nil)

type adminVoucherRow struct {
	ID                   int64            `bun:"id"`
	Code                 string           `bun:"code"`
	PartnerID            int64            `bun:"partner_id"`
	TimeZone             string           `bun:"time_zone"`
	Summary              string           `bun:"summary"`
	Origin               string           `bun:"origin"`
	OriginURL            string           `bun:"origin_url"`
	VoucherPrototypeID   int64            `bun:"voucher_prototype_id"`
	PrototypeType        string           `bun:"prototype_type"`
	PrototypeName        domain.Localized `bun:"prototype_name,type:jsonb"`
	PrototypeDescription domain.Localized `bun:"prototype_description,type:jsonb"`
	PrototypeRentConds   domain.Localized `bun:"prototype_rent_conditions,type:jsonb"`
	Type                 int              `bun:"type"`
	APIVersion           int              `bun:"api_version"`
	Language             string           `bun:"language"`
	ImportedFrom         string           `bun:"imported_from"`
	PaymentType          string           `bun:"payment_type"`
	NbNights             int              `bun:"nb_nights"`
	NbBabies             int              `bun:"nb_babies"`
	NbChildren           int              `bun:"nb_children"`
	NbAdults             int              `bun:"nb_adults"`
	ReceptionMode        int              `bun:"reception_mode"`
	ExpeditionStatus     string           `bun:"expedition_status"`
	ExpeditionDate       *time.Time       `bun:"expedition_date"`
	CoverLetterURL       string           `bun:"cover_letter_url"`
	PrintablePDFFile     string           `bun:"printable_pdf_file"`
	GifterID             *int64           `bun:"gifter_id"`
	GifterCivility       string           `bun:"gifter_civility"`
	GifterFirstName      string           `bun:"gifter_first_name"`
	GifterLastName       string           `bun:"gifter_last_name"`
	GifterAddress        string           `bun:"gifter_address"`
	GifterEmail          string           `bun:"gifter_email"`
	GifterZipcode        *int             `bun:"gifter_zipcode"`
	GifterCity           string           `bun:"gifter_city"`
	GifterCountry        string           `bun:"gifter_country"`
	GifterWiredPhone     string           `bun:"gifter_wired_phone"`
	GifterMobilePhone    string           `bun:"gifter_mobile_phone"`
	SelfGifted           bool             `bun:"self_gifted"`
	FromGifter           string           `bun:"from_gifter"`
	GifteeID             *int64           `bun:"giftee_id"`
	GifteeFirstName      string           `bun:"giftee_first_name"`
	GifteeLastName       string           `bun:"giftee_last_name"`
	GifteeEmail          string           `bun:"giftee_email"`
	GifteePhoneNumber    string           `bun:"giftee_phone_number"`
	RecipientAddress     string           `bun:"recipient_address"`
	ToGiftee             string           `bun:"to_giftee"`
	Message              string           `bun:"message"`
	TotalPrice           decimal.Decimal  `bun:"total_price"`
	PurchasePrice        decimal.Decimal  `bun:"purchase_price"`
	RentPrice            decimal.Decimal  `bun:"rent_price"`
	BoughtRentPrice      decimal.Decimal  `bun:"bought_rent_price"`
	CreationDate         time.Time        `bun:"creation_date"`
	ActivationDate       *time.Time       `bun:"activation_date"`
	UsageDate            *time.Time       `bun:"usage_date"`
	ExpirationDate       *time.Time       `bun:"expiration_date"`
	State                string           `bun:"state"`
	Version              int              `bun:"version"`
	IsGroupPayment       bool             `bun:"is_group_payment"`
	IsExtendable         bool             `bun:"is_extendable"`
	IsRefundable         bool             `bun:"is_refundable"`
	CouponID             *int64           `bun:"coupon_id"`
}

// voucherSelect reads adminVoucherRow; the caller appends WHERE, ORDER BY
// and LIMIT.
const voucherSelect = `SELECT v.id, v.code, vp.partner_id, p.time_zone, v.summary, v.origin, v.origin_url,
	v.voucher_prototype_id, vp.type AS prototype_type, vp.name AS prototype_name,
	vp.description AS prototype_description, vp.rent_conditions AS prototype_rent_conditions,
	v.type, v.api_version, v.language, v.imported_from, v.payment_type, v.nb_nights, v.nb_babies, v.nb_children,
	v.nb_adults, v.reception_mode, v.expedition_status, v.expedition_date, v.cover_letter_url, v.printable_pdf_file,
	v.gifter_id, v.gifter_civility, v.gifter_first_name, v.gifter_last_name, v.gifter_address, v.gifter_email,
	v.gifter_zipcode, v.gifter_city, v.gifter_country, v.gifter_wired_phone, v.gifter_mobile_phone, v.self_gifted,
	v.from_gifter, v.giftee_id, v.giftee_first_name, v.giftee_last_name, v.giftee_email, v.giftee_phone_number,
	v.recipient_address, v.to_giftee, v.message, v.total_price, v.purchase_price, v.rent_price, v.bought_rent_price,
	v.creation_date, v.activation_date, v.usage_date, v.expiration_date, v.state, v.version, v.is_group_payment,
	v.is_extendable, v.is_refundable, v.coupon_id
	FROM ` + voucherFrom + `
	JOIN partners p ON p.id = vp.partner_id `

// voucherFrom is what the voucher list's WHERE reads.
const voucherFrom = `vouchers v JOIN voucher_prototypes vp ON vp.id = v.voucher_prototype_id`

// voucherOrderColumns maps the allowed orderings to sort keys: only these
// expressions ever reach SQL. The service ends every order with the id.
var voucherOrderColumns = map[string]string{"id": "v.id", "creation_date": "v.creation_date", "code": "v.code",
	"total_price": "v.total_price", "state": "v.state", "expiration_date": timeNullsLast("v.expiration_date")}

var giftcardOrderColumns = map[string]string{"id": "g.id", "created_on": "g.created_on", "code": "g.code",
	"value": "g.value", "remaining_value": "g.remaining_value", "status": "g.status", "expires_on": timeNullsLast("g.expires_on")}

// sortKeys is an administration list's order as sort keys.
func sortKeys(order []vouchers.AdminOrder, columns map[string]string) ([]sortKey, error) {
	keys := make([]sortKey, len(order))
	for i, o := range order {
		col, ok := columns[o.Field]
		if !ok {
			return nil, fmt.Errorf("order by %q: not an allowed column", o.Field)
		}
		keys[i] = sortKey{expr: col, desc: o.Desc}
	}
	return keys, nil
}

// likeContains is an ILIKE pattern matching s anywhere, its wildcards
// taken literally.
func likeContains(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// voucherList is the list of the vouchers f selects.
func voucherList(f vouchers.VoucherFilter) list {
	conds := []string{"TRUE"}
	var args []any
	if f.Tenant != nil {
		conds = append(conds, "vp.partner_id = ?")
		args = append(args, *f.Tenant)
	}
	if f.Code != "" {
		conds = append(conds, `v.code ILIKE ? ESCAPE '\'`)
		args = append(args, likeContains(f.Code))
	}
	if f.PrototypeName != "" {
		conds = append(conds, `EXISTS (SELECT 1 FROM jsonb_each_text(vp.name) n WHERE n.value ILIKE ? ESCAPE '\')`)
		args = append(args, likeContains(f.PrototypeName))
	}
	if f.Gifter != "" {
		conds = append(conds, `(v.gifter_first_name ILIKE ? ESCAPE '\' OR v.gifter_last_name ILIKE ? ESCAPE '\' OR v.gifter_email ILIKE ? ESCAPE '\')`)
		p := likeContains(f.Gifter)
		args = append(args, p, p, p)
	}
	if f.Giftee != "" {
		conds = append(conds, `(v.giftee_first_name ILIKE ? ESCAPE '\' OR v.giftee_last_name ILIKE ? ESCAPE '\' OR v.giftee_email ILIKE ? ESCAPE '\')`)
		p := likeContains(f.Giftee)
		args = append(args, p, p, p)
	}
	if f.OriginURL != "" {
		conds = append(conds, `v.origin_url ILIKE ? ESCAPE '\'`)
		args = append(args, likeContains(f.OriginURL))
	}
	if f.From != nil {
		conds = append(conds, "v.creation_date >= ?")
		args = append(args, *f.From)
	}
	if f.To != nil {
		conds = append(conds, "v.creation_date < ?")
		args = append(args, *f.To)
	}
	return list{from: voucherFrom, where: strings.Join(conds, " AND "), args: args, id: "v.id"}
}

// ListVouchers returns a page of the vouchers f selects: numbered, or a
// keyset page (Size+1 rows in its reading direction).
func (s *VoucherAdminStore) ListVouchers(ctx context.Context, f vouchers.VoucherFilter, page domain.PageRequest) ([]*vouchers.AdminVoucher, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	keys, err := sortKeys(f.Order, voucherOrderColumns)
	if err != nil {
		return nil, 0, err
	}
	l := voucherList(f)
	count, err := l.count(ctx, s.db, page)
	if err != nil {
		return nil, 0, err
	}
	query, args := l.page(keys, page).raw(voucherSelect)
	var rows []adminVoucherRow
	if err := s.db.NewRaw(query, args...).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("list vouchers: %w", err)
	}
	out, err := s.complete(ctx, rows)
	return out, count, err
}

// FindVoucherByCode returns the voucher with that code.
func (s *VoucherAdminStore) FindVoucherByCode(ctx context.Context, code string) (*vouchers.AdminVoucher, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []adminVoucherRow
	if err := s.db.NewRaw(voucherSelect+"WHERE v.code = ?", code).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("find voucher: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	out, err := s.complete(ctx, rows)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

type voucherOptionRow struct {
	VoucherID    int64            `bun:"voucher_id"`
	Count        int              `bun:"count"`
	TotalPrice   decimal.Decimal  `bun:"total_price"`
	ID           int64            `bun:"id"`
	Name         domain.Localized `bun:"name,type:jsonb"`
	Description  domain.Localized `bun:"description,type:jsonb"`
	Price        decimal.Decimal  `bun:"price"`
	SellingPrice decimal.Decimal  `bun:"selling_price"`
	Countable    bool             `bun:"countable"`
	IsActive     bool             `bun:"is_active"`
	IsGlobal     bool             `bun:"is_global"`
	Ranking      int              `bun:"ranking"`
	CategoryID   *int64           `bun:"category_id"`
	SourceID     string           `bun:"source_id"`
	PrototypeIDs []int64          `bun:"prototype_ids,array"`
}

type optionServiceRow struct {
	OptionID   int64           `bun:"option_id"`
	Cost       decimal.Decimal `bun:"service_cost"`
	BuyingVAT  decimal.Decimal `bun:"service_buying_vat"`
	SellingVAT decimal.Decimal `bun:"service_selling_vat"`
	Price      decimal.Decimal `bun:"service_price"`
}

type includedOptionRow struct {
	PrototypeID int64            `bun:"voucher_prototype_id"`
	Name        domain.Localized `bun:"name,type:jsonb"`
	SourceID    string           `bun:"source_id"`
	Count       int              `bun:"count"`
}

type couponRow struct {
	ID                            int64           `bun:"id"`
	PartnerID                     int64           `bun:"partner_id"`
	Code                          string          `bun:"code"`
	Type                          string          `bun:"type"`
	Valid                         bool            `bun:"valid"`
	IsActivated                   bool            `bun:"is_activated"`
	DiscountText                  string          `bun:"discount_text"`
	Discount                      decimal.Decimal `bun:"discount"`
	DiscountType                  string          `bun:"discount_type"`
	NumberOfUsage                 int             `bun:"number_of_usage"`
	MaxUsage                      int             `bun:"max_usage"`
	NewValidityPeriod             string          `bun:"new_validity_period"`
	BookingEngineID               string          `bun:"booking_engine_id"`
	StartDate                     *time.Time      `bun:"start_date"`
	EndDate                       *time.Time      `bun:"end_date"`
	IsValueIncreased              bool            `bun:"is_value_increased"`
	IsValueIncreasedMultipleTimes bool            `bun:"is_value_increased_multiple_times"`
	// The lists, texts and flags as one JSON object each, keyed by column.
	IDLists map[string][]int64 `bun:"id_lists,type:jsonb"`
	Texts   map[string]string  `bun:"texts,type:jsonb"`
	Flags   map[string]bool    `bun:"flags,type:jsonb"`
}

// couponSelect reads couponRow, the lists, texts and flags as JSON objects
// built from the columns of domain.CouponIDListFields etc.
func couponSelect() string {
	obj := func(cols []string) string {
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = fmt.Sprintf("'%s', %s", c, c)
		}
		return "jsonb_build_object(" + strings.Join(parts, ", ") + ")"
	}
	return `SELECT id, partner_id, code, type, valid, is_activated, discount_text, discount, discount_type,
		number_of_usage, max_usage, new_validity_period, booking_engine_id, start_date, end_date, is_value_increased,
		is_value_increased_multiple_times, ` + obj(vouchers.CouponIDListFields) + ` AS id_lists, ` +
		obj(vouchers.CouponTextFields) + ` AS texts, ` + obj(vouchers.CouponFlagFields) + ` AS flags FROM coupons WHERE id IN (?)`
}

type stateChangeRow struct {
	ID        int64     `bun:"id"`
	VoucherID int64     `bun:"voucher_id"`
	From      string    `bun:"from_state"`
	To        string    `bun:"to_state"`
	UserID    *int64    `bun:"user_id"`
	ChangedAt time.Time `bun:"changed_at"`
}

// complete turns rows into vouchers with their options, included options,
// coupons and state changes: five queries for any number of vouchers.
func (s *VoucherAdminStore) complete(ctx context.Context, rows []adminVoucherRow) ([]*vouchers.AdminVoucher, error) {
	out := make([]*vouchers.AdminVoucher, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids, protoIDs, couponIDs := make([]int64, len(rows)), []int64{}, []int64{}
	byID := map[int64]*vouchers.AdminVoucher{}
	byProto := map[int64][]*vouchers.AdminVoucher{}
	byCoupon := map[int64][]*vouchers.AdminVoucher{}
	for i, r := range rows {
		v := toAdminVoucher(r)
		out[i], ids[i], byID[r.ID] = v, r.ID, v
		if _, seen := byProto[r.VoucherPrototypeID]; !seen {
			protoIDs = append(protoIDs, r.VoucherPrototypeID)
		}
		byProto[r.VoucherPrototypeID] = append(byProto[r.VoucherPrototypeID], v)
		if r.CouponID != nil {
			if _, seen := byCoupon[*r.CouponID]; !seen {
				couponIDs = append(couponIDs, *r.CouponID)
			}
			byCoupon[*r.CouponID] = append(byCoupon[*r.CouponID], v)
		}
	}

	var opts []voucherOptionRow
	if err := s.db.NewRaw(`SELECT vo.voucher_id, vo.count, vo.total_price, o.id, o.name, o.description, o.price,
			o.selling_price, o.countable, o.is_active, o.is_global, o.ranking, o.category_id, o.source_id,
			ARRAY(SELECT vpo.voucher_prototype_id FROM voucher_prototype_options vpo WHERE vpo.option_id = o.id
				ORDER BY vpo.voucher_prototype_id) AS prototype_ids
		FROM voucher_options vo JOIN options o ON o.id = vo.option_id
		WHERE vo.voucher_id IN (?) ORDER BY vo.voucher_id, o.ranking, o.id`, bun.In(ids)).Scan(ctx, &opts); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("voucher options: %w", err)
	}
	var services []optionServiceRow
	if err := s.db.NewRaw(`SELECT option_id, service_cost, service_buying_vat, service_selling_vat, service_price
		FROM option_services WHERE option_id IN (SELECT option_id FROM voucher_options WHERE voucher_id IN (?))
		ORDER BY option_id, position`, bun.In(ids)).Scan(ctx, &services); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("option services: %w", err)
	}
	servicesOf := map[int64][]vouchers.OptionService{}
	for _, sr := range services {
		servicesOf[sr.OptionID] = append(servicesOf[sr.OptionID], vouchers.OptionService{Cost: sr.Cost,
			BuyingVAT: sr.BuyingVAT, SellingVAT: sr.SellingVAT, Price: sr.Price})
	}
	for _, o := range opts {
		v := byID[o.VoucherID]
		sv := servicesOf[o.ID]
		if sv == nil {
			sv = []vouchers.OptionService{}
		}
		v.Options = append(v.Options, &vouchers.AdminVoucherOption{Count: o.Count, TotalPrice: o.TotalPrice,
			Option: &vouchers.VoucherOption{ID: o.ID, Name: o.Name, Description: o.Description, Countable: o.Countable,
				Services: sv, Price: o.Price, SellingPrice: o.SellingPrice, IsActive: o.IsActive, IsGlobal: o.IsGlobal,
				Ranking: o.Ranking, CategoryID: o.CategoryID, SourceID: o.SourceID, VoucherPrototypeIDs: o.PrototypeIDs}})
	}

	var included []includedOptionRow
	if err := s.db.NewRaw(`SELECT vpo.voucher_prototype_id, o.name, o.source_id, vpo.count
		FROM voucher_prototype_options vpo JOIN options o ON o.id = vpo.option_id
		WHERE vpo.included AND vpo.voucher_prototype_id IN (?)
		ORDER BY vpo.voucher_prototype_id, o.ranking, o.id`, bun.In(protoIDs)).Scan(ctx, &included); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("included options: %w", err)
	}
	for _, in := range included {
		for _, v := range byProto[in.PrototypeID] {
			v.IncludedOptions = append(v.IncludedOptions, &vouchers.IncludedOption{Name: in.Name, SourceID: in.SourceID, Count: in.Count})
		}
	}

	if len(couponIDs) > 0 {
		var coupons []couponRow
		if err := s.db.NewRaw(couponSelect(), bun.In(couponIDs)).Scan(ctx, &coupons); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("coupons: %w", err)
		}
		for _, c := range coupons {
			dc := &vouchers.Coupon{ID: c.ID, PartnerID: c.PartnerID, Code: c.Code, Type: c.Type, Valid: c.Valid,
				IsActivated: c.IsActivated, DiscountText: c.DiscountText, Discount: c.Discount, DiscountType: c.DiscountType,
				NumberOfUsage: c.NumberOfUsage, MaxUsage: c.MaxUsage, NewValidityPeriod: c.NewValidityPeriod,
				BookingEngineID: c.BookingEngineID, Start: c.StartDate, End: c.EndDate, IsValueIncreased: c.IsValueIncreased,
				IsValueIncreasedMultipleTimes: c.IsValueIncreasedMultipleTimes, IDLists: c.IDLists, Texts: c.Texts, Flags: c.Flags}
			for _, v := range byCoupon[c.ID] {
				v.Coupon = dc
			}
		}
	}

	var changes []stateChangeRow
	if err := s.db.NewRaw(`SELECT id, voucher_id, from_state, to_state, user_id, changed_at
		FROM voucher_state_changes WHERE voucher_id IN (?) ORDER BY voucher_id, id`, bun.In(ids)).Scan(ctx, &changes); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("voucher state changes: %w", err)
	}
	for _, c := range changes {
		v := byID[c.VoucherID]
		v.StateChanges = append(v.StateChanges, &vouchers.VoucherStateChange{ID: c.ID, VoucherID: c.VoucherID,
			From: c.From, To: c.To, UserID: c.UserID, ChangedAt: c.ChangedAt})
	}
	return out, nil
}

func toAdminVoucher(r adminVoucherRow) *vouchers.AdminVoucher {
	return &vouchers.AdminVoucher{ID: r.ID, Code: r.Code, PartnerID: r.PartnerID, PartnerTimeZone: r.TimeZone,
		Summary: r.Summary, Origin: r.Origin, OriginURL: r.OriginURL, VoucherPrototypeID: r.VoucherPrototypeID,
		VoucherPrototypeType: r.PrototypeType, PrototypeName: r.PrototypeName, PrototypeDescription: r.PrototypeDescription,
		PrototypeRentConds: r.PrototypeRentConds, Type: r.Type, APIVersion: r.APIVersion, Language: r.Language,
		ImportedFrom: r.ImportedFrom, PaymentType: r.PaymentType, NbNights: r.NbNights, NbBabies: r.NbBabies,
		NbChildren: r.NbChildren, NbAdults: r.NbAdults, ReceptionMode: r.ReceptionMode,
		ExpeditionStatus: r.ExpeditionStatus, ExpeditionDate: r.ExpeditionDate, CoverLetterURL: r.CoverLetterURL,
		PrintablePDFFile: r.PrintablePDFFile, GifterID: r.GifterID, GifterCivility: r.GifterCivility,
		GifterFirstName: r.GifterFirstName, GifterLastName: r.GifterLastName, GifterAddress: r.GifterAddress,
		GifterEmail: r.GifterEmail, GifterZipcode: r.GifterZipcode, GifterCity: r.GifterCity,
		GifterCountry: r.GifterCountry, GifterWiredPhone: r.GifterWiredPhone, GifterMobilePhone: r.GifterMobilePhone,
		SelfGifted: r.SelfGifted, FromGifter: r.FromGifter, GifteeID: r.GifteeID, GifteeFirstName: r.GifteeFirstName,
		GifteeLastName: r.GifteeLastName, GifteeEmail: r.GifteeEmail, GifteePhoneNumber: r.GifteePhoneNumber,
		RecipientAddress: r.RecipientAddress, ToGiftee: r.ToGiftee, Message: r.Message, TotalPrice: r.TotalPrice,
		PurchasePrice: r.PurchasePrice, RentPrice: r.RentPrice, BoughtRentPrice: r.BoughtRentPrice,
		CreationDate: r.CreationDate, ActivationDate: r.ActivationDate, UsageDate: r.UsageDate,
		ExpirationDate: r.ExpirationDate, State: r.State, Version: r.Version, IsGroupPayment: r.IsGroupPayment,
		IsExtendable: r.IsExtendable, IsRefundable: r.IsRefundable,
		Options: []*vouchers.AdminVoucherOption{}, IncludedOptions: []*vouchers.IncludedOption{},
		StateChanges: []*vouchers.VoucherStateChange{}}
}

// ChangeVoucherState moves the voucher from c.From to c.To only if it is
// still at version: the conditional UPDATE makes one of two concurrent
// changes a no-op (false) instead of a lost update.
func (s *VoucherAdminStore) ChangeVoucherState(ctx context.Context, c *vouchers.VoucherStateChange, version int, activation, usage *time.Time) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewRaw(`UPDATE vouchers SET state = ?, version = version + 1,
			activation_date = COALESCE(?::timestamptz, activation_date), usage_date = COALESCE(?::timestamptz, usage_date)
		WHERE id = ? AND version = ? AND state = ?`, c.To, activation, usage, c.VoucherID, version, c.From).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("change voucher state: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// RecordVoucherStateChange inserts c in the voucher's history and sets
// c.ID.
func (s *VoucherAdminStore) RecordVoucherStateChange(ctx context.Context, c *vouchers.VoucherStateChange) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if err := s.db.NewRaw(`INSERT INTO voucher_state_changes (voucher_id, from_state, to_state, user_id, changed_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, c.VoucherID, c.From, c.To, c.UserID, c.ChangedAt).Scan(ctx, &c.ID); err != nil {
		return fmt.Errorf("record voucher state change: %w", err)
	}
	return nil
}

// issueError translates what PostgreSQL refused on an issue.
func issueError(what, productField string, err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "23505" && pgErr.ConstraintName == "gift_codes_pkey":
			return invalidField("code", domain.VUnique, "A gift with this code already exists.")
		case pgErr.Code == "23503" && strings.Contains(pgErr.ConstraintName, "prototype_id_fkey"):
			return invalidField(productField, domain.VNotFound, domain.MsgNotFound)
		}
	}
	return fmt.Errorf("issue %s: %w", what, err)
}

// IssueVoucher registers the code and inserts the voucher and its options
// (three statements: the service runs them in its transaction).
func (s *VoucherAdminStore) IssueVoucher(ctx context.Context, v *vouchers.AdminVoucher) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if err := s.issueVoucher(ctx, v); err != nil {
		return issueError("voucher", "voucherPrototypeId", err)
	}
	return nil
}

func (s *VoucherAdminStore) issueVoucher(ctx context.Context, v *vouchers.AdminVoucher) error {
	if _, err := s.db.NewRaw(`INSERT INTO gift_codes (code, kind) VALUES (?, 'voucher')`, v.Code).Exec(ctx); err != nil {
		return err
	}
	if err := s.db.NewRaw(`INSERT INTO vouchers (code, voucher_prototype_id, state, total_price, expiration_date,
			summary, origin, type, api_version, language, reception_mode, nb_nights, nb_babies, nb_children, nb_adults,
			gifter_first_name, gifter_last_name, gifter_email, from_gifter, giftee_first_name, giftee_last_name,
			giftee_email, to_giftee, message, activation_date)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
			CASE WHEN ? = 'paid' THEN now() END)
		RETURNING id`,
		v.Code, v.VoucherPrototypeID, v.State, v.TotalPrice, v.ExpirationDate, v.Summary, v.Origin, v.Type,
		v.APIVersion, v.Language, v.ReceptionMode, v.NbNights, v.NbBabies, v.NbChildren, v.NbAdults,
		v.GifterFirstName, v.GifterLastName, v.GifterEmail, v.FromGifter, v.GifteeFirstName, v.GifteeLastName,
		v.GifteeEmail, v.ToGiftee, v.Message, v.State).Scan(ctx, &v.ID); err != nil {
		return err
	}
	if len(v.Options) == 0 {
		return nil
	}
	optIDs, counts, prices := make([]int64, len(v.Options)), make([]int64, len(v.Options)), make([]string, len(v.Options))
	for i, o := range v.Options {
		optIDs[i], counts[i], prices[i] = o.Option.ID, int64(o.Count), o.TotalPrice.StringFixed(2)
	}
	_, err := s.db.NewRaw(`INSERT INTO voucher_options (voucher_id, option_id, count, total_price)
		SELECT ?, o.id, o.n, o.p::numeric FROM unnest(?::bigint[], ?::bigint[], ?::text[]) AS o (id, n, p)`,
		v.ID, pgdialect.Array(optIDs), pgdialect.Array(counts), pgdialect.Array(prices)).Exec(ctx)
	return err
}

// PrototypePartner returns the partner of a voucher prototype.
func (s *VoucherAdminStore) PrototypePartner(ctx context.Context, prototypeID int64) (int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var id int64
	err := s.db.NewRaw(`SELECT partner_id FROM voucher_prototypes WHERE id = ?`, prototypeID).Scan(ctx, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, domain.ErrNotFound
	}
	return id, err
}

// OptionPartners returns the partner of each option of ids that exists.
func (s *VoucherAdminStore) OptionPartners(ctx context.Context, ids []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(ids) == 0 {
		return out, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID        int64 `bun:"id"`
		PartnerID int64 `bun:"partner_id"`
	}
	if err := s.db.NewRaw(`SELECT id, partner_id FROM options WHERE id IN (?)`, bun.In(ids)).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("option partners: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.PartnerID
	}
	return out, nil
}

type adminGiftcardRow struct {
	ID                  int64           `bun:"id"`
	Code                string          `bun:"code"`
	PartnerID           int64           `bun:"partner_id"`
	TimeZone            string          `bun:"time_zone"`
	GiftcardPrototypeID int64           `bun:"giftcard_prototype_id"`
	Status              string          `bun:"status"`
	CreatedOn           time.Time       `bun:"created_on"`
	ExpiresOn           *time.Time      `bun:"expires_on"`
	Value               decimal.Decimal `bun:"value"`
	RemainingValue      decimal.Decimal `bun:"remaining_value"`
	GifterFirstName     string          `bun:"gifter_first_name"`
	GifterLastName      string          `bun:"gifter_last_name"`
}

const giftcardSelect = `SELECT g.id, g.code, gp.partner_id, p.time_zone, g.giftcard_prototype_id, g.status, g.created_on,
	g.expires_on, g.value, g.remaining_value, g.gifter_first_name, g.gifter_last_name
	FROM ` + giftcardFrom + `
	JOIN partners p ON p.id = gp.partner_id `

// giftcardFrom is what the giftcard list's WHERE reads.
const giftcardFrom = `giftcards g JOIN giftcard_prototypes gp ON gp.id = g.giftcard_prototype_id`

func toAdminGiftcard(r adminGiftcardRow) *vouchers.AdminGiftcard {
	return &vouchers.AdminGiftcard{ID: r.ID, Code: r.Code, PartnerID: r.PartnerID, PartnerTimeZone: r.TimeZone,
		GiftcardPrototypeID: r.GiftcardPrototypeID, Status: r.Status, CreatedOn: r.CreatedOn, ExpiresOn: r.ExpiresOn,
		Value: r.Value, RemainingValue: r.RemainingValue, GifterFirstName: r.GifterFirstName, GifterLastName: r.GifterLastName}
}

// ListGiftcards returns a page of the giftcards f selects: numbered, or a
// keyset page (Size+1 rows in its reading direction).
func (s *VoucherAdminStore) ListGiftcards(ctx context.Context, f vouchers.GiftcardFilter, page domain.PageRequest) ([]*vouchers.AdminGiftcard, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	conds, args := []string{"TRUE"}, []any{}
	if f.Tenant != nil {
		conds, args = append(conds, "gp.partner_id = ?"), append(args, *f.Tenant)
	}
	if f.From != nil {
		conds, args = append(conds, "g.created_on >= ?"), append(args, *f.From)
	}
	if f.To != nil {
		conds, args = append(conds, "g.created_on < ?"), append(args, *f.To)
	}
	keys, err := sortKeys(f.Order, giftcardOrderColumns)
	if err != nil {
		return nil, 0, err
	}
	l := list{from: giftcardFrom, where: strings.Join(conds, " AND "), args: args, id: "g.id"}
	count, err := l.count(ctx, s.db, page)
	if err != nil {
		return nil, 0, err
	}
	query, qargs := l.page(keys, page).raw(giftcardSelect)
	var rows []adminGiftcardRow
	if err := s.db.NewRaw(query, qargs...).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("list giftcards: %w", err)
	}
	out := make([]*vouchers.AdminGiftcard, len(rows))
	for i, r := range rows {
		out[i] = toAdminGiftcard(r)
	}
	return out, count, nil
}

// FindGiftcard returns the giftcard with that id, or that code.
func (s *VoucherAdminStore) FindGiftcard(ctx context.Context, id int64, code string) (*vouchers.AdminGiftcard, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var r adminGiftcardRow
	q := s.db.NewRaw(giftcardSelect+"WHERE g.id = ?", id)
	if code != "" {
		q = s.db.NewRaw(giftcardSelect+"WHERE g.code = ?", code)
	}
	err := q.Scan(ctx, &r)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("find giftcard: %w", err)
	}
	return toAdminGiftcard(r), nil
}

// IssueGiftcard registers the code and inserts the giftcard (two
// statements: the service runs them in its transaction).
func (s *VoucherAdminStore) IssueGiftcard(ctx context.Context, g *vouchers.AdminGiftcard) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`INSERT INTO gift_codes (code, kind) VALUES (?, 'giftcard')`, g.Code).Exec(ctx)
	if err == nil {
		err = s.db.NewRaw(`INSERT INTO giftcards (code, giftcard_prototype_id, status, value, remaining_value, expires_on,
				gifter_first_name, gifter_last_name)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, g.Code, g.GiftcardPrototypeID, g.Status, g.Value,
			g.RemainingValue, g.ExpiresOn, g.GifterFirstName, g.GifterLastName).Scan(ctx, &g.ID)
	}
	if err != nil {
		return issueError("giftcard", "giftcardPrototypeId", err)
	}
	return nil
}

// VoucherStores binds the voucher administration's stores to db, a pool
// or a transaction.
func VoucherStores(db bun.IDB) vouchers.Stores {
	return vouchers.Stores{Vouchers: &VoucherAdminStore{db: db}, Partners: &PartnerStore{db: db}}
}
