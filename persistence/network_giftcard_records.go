package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// The network giftcards' records: creation, lookups and the usages list.

// InsertGiftcard implements network.GiftcardStore: the code, the card and
// its ledger's issue movement in one statement. A taken code inserts
// nothing (ON CONFLICT DO NOTHING, so the transaction goes on).
func (s *NetworkGiftcardStore) InsertGiftcard(ctx context.Context, g *network.Giftcard) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	giftee := g.Giftee
	if giftee == nil {
		giftee = &network.Customer{}
	}
	var ids []int64
	err := s.db.NewRaw(`WITH c AS (INSERT INTO gift_codes (code, kind) VALUES (?, 'network_giftcard')
			ON CONFLICT DO NOTHING RETURNING code, kind),
		card AS (INSERT INTO network_giftcards (code, code_kind, marketplace_id, status, value, remaining_value,
				activation_date, expiration_date, is_active, currency, language, is_splittable,
				gifter_first_name, gifter_last_name, gifter_email, has_giftee, giftee_first_name, giftee_last_name,
				giftee_email, from_gifter, theme)
			SELECT c.code, c.kind, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM c
			RETURNING id, remaining_value),
		issue AS (INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after)
			SELECT id, 'issue', remaining_value, remaining_value FROM card WHERE remaining_value > 0)
		SELECT id FROM card`,
		g.Code, g.MarketplaceID, g.Status, g.Value, g.RemainingValue, g.ActivationDate, g.ExpirationDate, g.IsActive,
		g.Currency, g.Language, g.IsSplittable, g.Gifter.FirstName, g.Gifter.LastName, g.Gifter.Email, g.Giftee != nil,
		giftee.FirstName, giftee.LastName, giftee.Email, g.FromGifter, g.Theme).Scan(ctx, &ids)
	switch {
	case err != nil:
		return false, fmt.Errorf("insert network giftcard: %w", err)
	case len(ids) == 0:
		return true, nil
	}
	g.ID = ids[0]
	return false, nil
}

type networkGiftcardRow struct {
	ID                int64           `bun:"id"`
	UUID              uuid.UUID       `bun:"uuid"`
	Code              string          `bun:"code"`
	Status            string          `bun:"status"`
	Value             decimal.Decimal `bun:"value"`
	RemainingValue    decimal.Decimal `bun:"remaining_value"`
	Currency          string          `bun:"currency"`
	Language          string          `bun:"language"`
	CreationDate      time.Time       `bun:"creation_date"`
	ActivationDate    *time.Time      `bun:"activation_date"`
	ExpirationDate    *time.Time      `bun:"expiration_date"`
	IsActive          bool            `bun:"is_active"`
	IsSplittable      bool            `bun:"is_splittable"`
	GifterFirstName   string          `bun:"gifter_first_name"`
	GifterLastName    string          `bun:"gifter_last_name"`
	GifterEmail       string          `bun:"gifter_email"`
	HasGiftee         bool            `bun:"has_giftee"`
	GifteeFirstName   string          `bun:"giftee_first_name"`
	GifteeLastName    string          `bun:"giftee_last_name"`
	GifteeEmail       string          `bun:"giftee_email"`
	FromGifter        string          `bun:"from_gifter"`
	Theme             string          `bun:"theme"`
	MarketplaceID     int64           `bun:"marketplace_id"`
	MarketplaceUUID   uuid.UUID       `bun:"marketplace_uuid"`
	TimeZone          string          `bun:"time_zone"`
	OrderUUID         *uuid.UUID      `bun:"order_uuid"`
	OrderCreationDate *time.Time      `bun:"order_creation_date"`
	Description       string          `bun:"description"`
	ShortDescription  string          `bun:"short_description"`
	Count             int             `bun:"full_count"`
}

// networkGiftcardSelect reads networkGiftcardRow of a card g: the
// description and short description are the marketplace's network
// giftcard description and title in the card's language.
const networkGiftcardSelect = `SELECT g.id, g.uuid, g.code, g.status, g.value, g.remaining_value, g.currency, g.language,
	g.creation_date, g.activation_date, g.expiration_date, g.is_active, g.is_splittable,
	g.gifter_first_name, g.gifter_last_name, g.gifter_email, g.has_giftee, g.giftee_first_name, g.giftee_last_name,
	g.giftee_email, g.from_gifter, g.theme, g.marketplace_id, m.uuid AS marketplace_uuid, m.time_zone,
	g.order_uuid, g.order_creation_date,
	COALESCE(pi.giftcard_description ->> g.language, '') AS description,
	COALESCE(pi.giftcard_title ->> g.language, '') AS short_description`

const networkGiftcardFrom = ` FROM network_giftcards g JOIN partners m ON m.id = g.marketplace_id
	LEFT JOIN product_information_network_giftcards pi ON pi.partner_id = g.marketplace_id`

func (r *networkGiftcardRow) toDomain() *network.Giftcard {
	g := &network.Giftcard{ID: r.ID, UUID: r.UUID, Code: r.Code, Status: r.Status, Value: r.Value,
		RemainingValue: r.RemainingValue, Currency: r.Currency, Language: r.Language, CreationDate: r.CreationDate,
		ActivationDate: r.ActivationDate, ExpirationDate: r.ExpirationDate, IsActive: r.IsActive,
		IsSplittable: r.IsSplittable, FromGifter: r.FromGifter, Theme: r.Theme, MarketplaceID: r.MarketplaceID,
		MarketplaceUUID: r.MarketplaceUUID, TimeZone: r.TimeZone, OrderUUID: r.OrderUUID,
		OrderCreationDate: r.OrderCreationDate, Description: r.Description, ShortDescription: r.ShortDescription,
		Gifter: network.Customer{FirstName: r.GifterFirstName, LastName: r.GifterLastName, Email: r.GifterEmail}}
	if r.HasGiftee {
		g.Giftee = &network.Customer{FirstName: r.GifteeFirstName, LastName: r.GifteeLastName, Email: r.GifteeEmail}
	}
	return g
}

// GiftcardByCode implements network.GiftcardStore.
func (s *NetworkGiftcardStore) GiftcardByCode(ctx context.Context, code string, tenant *int64) (*network.Giftcard, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []networkGiftcardRow
	err := scanPrepared(ctx, s.db, &rows, networkGiftcardSelect+`, 0 AS full_count`+networkGiftcardFrom+`
		WHERE lower(g.code) = lower($1) AND ($2::bigint IS NULL OR g.marketplace_id = $2)`, code, tenant)
	if err != nil {
		return nil, fmt.Errorf("select network giftcard: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].toDomain(), nil
}

// GiftcardsByEmail implements network.GiftcardStore.
func (s *NetworkGiftcardStore) GiftcardsByEmail(ctx context.Context, email string, tenant *int64, page domain.PageRequest) ([]*network.Giftcard, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []networkGiftcardRow
	err := scanPrepared(ctx, s.db, &rows, networkGiftcardSelect+`, count(*) OVER () AS full_count`+networkGiftcardFrom+`
		WHERE (lower(g.gifter_email) = lower($1) OR lower(g.giftee_email) = lower($1))
			AND ($2::bigint IS NULL OR g.marketplace_id = $2)
		ORDER BY g.creation_date DESC, g.id DESC LIMIT $3 OFFSET $4`, email, tenant, page.Size, page.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("select network giftcards by e-mail: %w", err)
	}
	out := make([]*network.Giftcard, len(rows))
	count := 0
	for i := range rows {
		out[i], count = rows[i].toDomain(), rows[i].Count
	}
	if len(rows) == 0 && page.Offset() > 0 {
		// Past the end: count the list for the page check.
		err := s.db.NewRaw(`SELECT count(*) FROM network_giftcards g
			WHERE (lower(g.gifter_email) = lower(?0) OR lower(g.giftee_email) = lower(?0))
				AND (?1::bigint IS NULL OR g.marketplace_id = ?1)`, email, tenant).Scan(ctx, &count)
		if err != nil {
			return nil, 0, fmt.Errorf("count network giftcards by e-mail: %w", err)
		}
	}
	return out, count, nil
}

// UsagesOfCard implements network.GiftcardStore.
func (s *NetworkGiftcardStore) UsagesOfCard(ctx context.Context, cardID int64, page domain.PageRequest) ([]*network.Usage, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []networkUsageRow
	err := s.db.NewRaw(`SELECT `+networkUsageColumns+` FROM network_giftcard_usages AS u
		WHERE u.network_giftcard_id = ? ORDER BY u.id LIMIT ? OFFSET ?`, cardID, page.Size, page.Offset()).Scan(ctx, &rows)
	if err != nil {
		return nil, 0, fmt.Errorf("select network giftcard usages: %w", err)
	}
	var count int
	if err := s.db.NewRaw(`SELECT count(*) FROM network_giftcard_usages WHERE network_giftcard_id = ?`, cardID).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count network giftcard usages: %w", err)
	}
	out := make([]*network.Usage, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// NoticeParties implements network.GiftcardStore.
func (s *NetworkGiftcardStore) NoticeParties(ctx context.Context, marketplaceID, partnerID int64) (*network.NoticeParties, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		MarketplaceName  string `bun:"marketplace_name"`
		MarketplaceEmail string `bun:"marketplace_email"`
		PartnerName      string `bun:"partner_name"`
	}
	err := scanPrepared(ctx, s.db, &rows, `SELECT m.name AS marketplace_name,
			COALESCE((SELECT l.agency_email FROM partner_legal_information l WHERE l.partner_id = m.id), '') AS marketplace_email,
			p.name AS partner_name
		FROM partners m, partners p WHERE m.id = $1 AND p.id = $2`, marketplaceID, partnerID)
	if err != nil {
		return nil, fmt.Errorf("select notice parties: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	r := rows[0]
	return &network.NoticeParties{MarketplaceName: r.MarketplaceName, MarketplaceEmail: r.MarketplaceEmail, PartnerName: r.PartnerName}, nil
}
