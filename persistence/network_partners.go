package persistence

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// NetworkPartnerStore is the network.PartnerStore on PostgreSQL: the
// partner rows (through the account area's PartnerStore), their company
// record (partner_legal_information, whose catalogue column names it maps
// to the administration's), their tags, their links to marketplaces'
// networks (network_partners) and settings
// (network_giftcard_allowed_partners, network_voucher_allowed_partners).
type NetworkPartnerStore struct {
	*PartnerStore
	db bun.IDB
}

var _ network.PartnerStore = (*NetworkPartnerStore)(nil)

// LockPartner implements network.PartnerStore.
func (s *NetworkPartnerStore) LockPartner(ctx context.Context, id int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	return lockPartner(ctx, s.db, id)
}

// CreateCompany implements network.PartnerStore.
func (s *NetworkPartnerStore) CreateCompany(ctx context.Context, partnerID int64, c *network.Company) error {
	return insertCompany(ctx, s.db, partnerID, c)
}

// AddTags implements network.PartnerStore.
func (s *NetworkPartnerStore) AddTags(ctx context.Context, partnerID int64, tags []string) error {
	if len(tags) == 0 {
		return nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`INSERT INTO partner_tags (partner_id, position, tag)
		SELECT ?, t.ord - 1, t.tag FROM unnest(?::text[]) WITH ORDINALITY AS t(tag, ord)`,
		partnerID, pgdialect.Array(tags)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("insert partner tags: %w", err)
	}
	return nil
}

// AddToNetwork implements network.PartnerStore.
func (s *NetworkPartnerStore) AddToNetwork(ctx context.Context, marketplaceID, partnerID int64, sourceID string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`INSERT INTO network_partners (marketplace_id, partner_id, source_id, created_here)
		VALUES (?, ?, ?, true)`, marketplaceID, partnerID, sourceID).Exec(ctx)
	if c, ok := uniqueViolation(err); ok && c == "network_partners_source_id_key" {
		return invalidField("source_id", domain.VUnique, network.MsgSourceIDTaken)
	}
	if err != nil {
		return fmt.Errorf("add partner %d to the network of %d: %w", partnerID, marketplaceID, err)
	}
	return nil
}

// SetSourceID implements network.PartnerStore.
func (s *NetworkPartnerStore) SetSourceID(ctx context.Context, marketplaceID, partnerID int64, sourceID string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`UPDATE network_partners SET source_id = ? WHERE marketplace_id = ? AND partner_id = ?`,
		sourceID, marketplaceID, partnerID).Exec(ctx)
	if c, ok := uniqueViolation(err); ok && c == "network_partners_source_id_key" {
		return invalidField("source_id", domain.VUnique, network.MsgSourceIDTaken)
	}
	if err != nil {
		return fmt.Errorf("set the source id of partner %d in the network of %d: %w", partnerID, marketplaceID, err)
	}
	return nil
}

// LinkSettings implements network.PartnerStore.
func (s *NetworkPartnerStore) LinkSettings(ctx context.Context, marketplaceID, partnerID int64, links network.SettingsLinks) error {
	for _, l := range []struct {
		table  string
		linked *bool
	}{
		{"network_voucher_allowed_partners", links.NetworkVouchers},
		{"network_giftcard_allowed_partners", links.NetworkGiftcards},
	} {
		if l.linked == nil {
			continue
		}
		q := `INSERT INTO ? (marketplace_id, partner_id) VALUES (?, ?) ON CONFLICT DO NOTHING`
		if !*l.linked {
			q = `DELETE FROM ? WHERE marketplace_id = ? AND partner_id = ?`
		}
		if err := s.exec(ctx, q, bun.Ident(l.table), marketplaceID, partnerID); err != nil {
			return fmt.Errorf("link partner %d to %s: %w", partnerID, l.table, err)
		}
	}
	return nil
}

func (s *NetworkPartnerStore) exec(ctx context.Context, query string, args ...any) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(query, args...).Exec(ctx)
	return err
}

// NetworkPartnerBySourceID implements network.PartnerStore.
func (s *NetworkPartnerStore) NetworkPartnerBySourceID(ctx context.Context, marketplaceID int64, sourceID string) (int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var id int64
	err := s.db.NewRaw(`SELECT partner_id FROM network_partners WHERE marketplace_id = ? AND source_id = ?`,
		marketplaceID, sourceID).Scan(ctx, &id)
	if err != nil {
		return 0, notFound(err)
	}
	return id, nil
}

// NetworkPartnersBySiret implements network.PartnerStore.
func (s *NetworkPartnerStore) NetworkPartnersBySiret(ctx context.Context, marketplaceID int64, siret string) ([]int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	ids := []int64{}
	err := s.db.NewRaw(`SELECT np.partner_id FROM network_partners np
		JOIN partner_legal_information li ON li.partner_id = np.partner_id
		WHERE np.marketplace_id = ? AND li.siret_number = ? ORDER BY np.partner_id LIMIT 2`,
		marketplaceID, siret).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("select network partners by siret: %w", err)
	}
	return ids, nil
}

type networkPartnerRow struct {
	ID            int64     `bun:"id"`
	UUID          uuid.UUID `bun:"uuid,type:uuid"`
	MarketplaceID int64     `bun:"marketplace_id"`
	Status        string    `bun:"status"`
	Name          string    `bun:"name"`
	SourceID      *string   `bun:"source_id"`
	CreatedHere   bool      `bun:"created_here"`
	companyRow
	LinkedToNVSettings  bool     `bun:"nv"`
	LinkedToNGCSettings bool     `bun:"ngc"`
	Tags                []string `bun:"tags,array"`
}

// FindNetworkPartner implements network.PartnerStore. A partner without a
// company record shows its defaults.
func (s *NetworkPartnerStore) FindNetworkPartner(ctx context.Context, marketplaceID, partnerID int64) (*network.Partner, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var r networkPartnerRow
	err := s.db.NewRaw(`SELECT p.id, p.uuid, np.marketplace_id, p.status, p.name, np.source_id, np.created_here,
			`+companyColumns+`,
			EXISTS (SELECT 1 FROM network_voucher_allowed_partners a
				WHERE a.marketplace_id = np.marketplace_id AND a.partner_id = p.id) AS nv,
			EXISTS (SELECT 1 FROM network_giftcard_allowed_partners a
				WHERE a.marketplace_id = np.marketplace_id AND a.partner_id = p.id) AS ngc,
			ARRAY(SELECT t.tag FROM partner_tags t WHERE t.partner_id = p.id ORDER BY t.position) AS tags
		FROM network_partners np
		JOIN partners p ON p.id = np.partner_id
		LEFT JOIN partner_legal_information li ON li.partner_id = p.id
		WHERE np.marketplace_id = ? AND np.partner_id = ?`, marketplaceID, partnerID).Scan(ctx, &r)
	if err != nil {
		return nil, notFound(err)
	}
	return &network.Partner{ID: r.ID, UUID: r.UUID, MarketplaceID: r.MarketplaceID, Status: r.Status, Name: r.Name,
		SourceID: r.SourceID, CreatedHere: r.CreatedHere, LinkedToNVSettings: r.LinkedToNVSettings, LinkedToNGCSettings: r.LinkedToNGCSettings,
		Tags: r.Tags, Company: r.company()}, nil
}

// SavePartnerSettings implements network.PartnerStore: the status on the
// partner, the rest on its company record (made with defaults if it has
// none), in one statement.
func (s *NetworkPartnerStore) SavePartnerSettings(ctx context.Context, p *network.Partner) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`WITH status AS (UPDATE partners SET status = ? WHERE id = ? RETURNING id)
		INSERT INTO partner_legal_information (partner_id, hide_from_stats, third_party_sales_only, referrer_id)
		SELECT id, ?, ?, ? FROM status
		ON CONFLICT (partner_id) DO UPDATE SET hide_from_stats = EXCLUDED.hide_from_stats,
			third_party_sales_only = EXCLUDED.third_party_sales_only, referrer_id = EXCLUDED.referrer_id`,
		p.Status, p.ID, p.HideFromStats, p.ThirdPartySalesOnly, p.ReferrerID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("save partner settings: %w", err)
	}
	return nil
}

// CheckPartner implements network.PartnerStore. Commercial names are
// compared with ICU's lower(), which folds accented capitals whatever the
// database's locale.
func (s *NetworkPartnerStore) CheckPartner(ctx context.Context, networkOf *int64, siret, commercialName string) (int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	scope, args := "TRUE", []any{siret, commercialName}
	if networkOf != nil {
		scope = "li.partner_id IN (SELECT np.partner_id FROM network_partners np WHERE np.marketplace_id = ?)"
		args = append(args, *networkOf)
	}
	var id int64
	err := s.db.NewRaw(`SELECT li.partner_id FROM partner_legal_information li
		WHERE li.siret_number = ? AND lower(li.commercial_name COLLATE "und-x-icu") = lower(?::text COLLATE "und-x-icu")
		AND `+scope+` ORDER BY li.partner_id LIMIT 1`, args...).Scan(ctx, &id)
	if err != nil {
		return 0, notFound(err)
	}
	return id, nil
}

type acceptorRow struct {
	PartnerID     int64  `bun:"partner_id"`
	MarketplaceID int64  `bun:"marketplace_id"`
	SourceID      string `bun:"source_id"`
	Status        string `bun:"status"`
	NGC           bool   `bun:"ngc"`
	NV            bool   `bun:"nv"`
}

// acceptorSelect reads the acceptors of network_partners rows np of the
// marketplace of the expression marketplace that the condition appended
// selects; every use of a network gift reads one, so it is prepared.
func acceptorSelect(marketplace string) string {
	return `SELECT np.partner_id, np.marketplace_id, COALESCE(np.source_id, '') AS source_id, p.status,
		EXISTS (SELECT 1 FROM network_giftcard_allowed_partners a
			WHERE a.marketplace_id = np.marketplace_id AND a.partner_id = np.partner_id) AS ngc,
		EXISTS (SELECT 1 FROM network_voucher_allowed_partners a
			WHERE a.marketplace_id = np.marketplace_id AND a.partner_id = np.partner_id) AS nv
	FROM network_partners np JOIN partners p ON p.id = np.partner_id
	WHERE np.marketplace_id = ` + marketplace + ` AND `
}

var acceptorQuery = acceptorSelect("$1")

func (s *NetworkPartnerStore) acceptor(ctx context.Context, where string, args ...any) (*network.Acceptor, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []acceptorRow
	if err := scanPrepared(ctx, s.db, &rows, acceptorQuery+where, args...); err != nil {
		return nil, fmt.Errorf("select network partner: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].acceptor(), nil
}

func (r acceptorRow) acceptor() *network.Acceptor {
	return &network.Acceptor{PartnerID: r.PartnerID, MarketplaceID: r.MarketplaceID, SourceID: r.SourceID, Status: r.Status,
		LinkedToNGCSettings: r.NGC, LinkedToNVSettings: r.NV}
}

// Acceptor implements network.PartnerStore.
func (s *NetworkPartnerStore) Acceptor(ctx context.Context, marketplaceID int64, sourceID string) (*network.Acceptor, error) {
	return s.acceptor(ctx, "np.source_id = $2", marketplaceID, sourceID)
}

// AcceptorByPartnerID implements network.PartnerStore.
func (s *NetworkPartnerStore) AcceptorByPartnerID(ctx context.Context, marketplaceID, partnerID int64) (*network.Acceptor, error) {
	return s.acceptor(ctx, "np.partner_id = $2", marketplaceID, partnerID)
}
