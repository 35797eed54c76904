package persistence

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/media"
)

type mediaRow struct {
	bun.BaseModel `bun:"table:media,alias:m"`

	ID          int64      `bun:"id,pk,autoincrement"`
	UUID        uuid.UUID  `bun:"uuid,type:uuid,nullzero,default:gen_random_uuid()"`
	PartnerID   int64      `bun:"partner_id,notnull"`
	Name        string     `bun:"name,notnull"`
	BlobKey     string     `bun:"blob_key,notnull"`
	ContentType string     `bun:"content_type,notnull"`
	Size        int64      `bun:"size,notnull"`
	Width       int        `bun:"width,notnull"`
	Height      int        `bun:"height,notnull"`
	CreatedOn   time.Time  `bun:"created_on,nullzero,notnull,default:current_timestamp"`
	ArchivedOn  *time.Time `bun:"archived_on"`
}

func (r *mediaRow) toDomain() *media.Media {
	return &media.Media{ID: r.ID, UUID: r.UUID, PartnerID: r.PartnerID, Name: r.Name, BlobKey: r.BlobKey,
		ContentType: r.ContentType, Size: r.Size, Width: r.Width, Height: r.Height,
		CreatedOn: r.CreatedOn, ArchivedOn: r.ArchivedOn}
}

// MediaStore is the domain.MediaStore on PostgreSQL.
type MediaStore struct{ db bun.IDB }

var _ media.MediaStore = (*MediaStore)(nil)

// CreateMedia inserts m and sets its ID, UUID and CreatedOn.
func (s *MediaStore) CreateMedia(ctx context.Context, m *media.Media) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &mediaRow{PartnerID: m.PartnerID, Name: m.Name, BlobKey: m.BlobKey, ContentType: m.ContentType,
		Size: m.Size, Width: m.Width, Height: m.Height}
	if _, err := s.db.NewInsert().Model(row).Returning("*").Exec(ctx); err != nil {
		return fmt.Errorf("insert media: %w", err)
	}
	*m = *row.toDomain()
	return nil
}

func (s *MediaStore) findOne(ctx context.Context, where string, arg any) (*media.Media, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(mediaRow)
	if err := s.db.NewSelect().Model(row).Where(where, arg).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	return row.toDomain(), nil
}

// GetMedia returns domain.ErrNotFound when no media has that id.
func (s *MediaStore) GetMedia(ctx context.Context, id int64) (*media.Media, error) {
	return s.findOne(ctx, "m.id = ?", id)
}

// FindMediaByUUID returns domain.ErrNotFound when no media has that uuid.
func (s *MediaStore) FindMediaByUUID(ctx context.Context, id uuid.UUID) (*media.Media, error) {
	return s.findOne(ctx, "m.uuid = ?", id)
}

// MediaByID returns the media in ids order, nil for an id that names
// none: one statement.
func (s *MediaStore) MediaByID(ctx context.Context, ids []int64) ([]*media.Media, error) {
	if len(ids) == 0 {
		return []*media.Media{}, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []mediaRow
	if err := s.db.NewSelect().Model(&rows).Where("m.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("select media: %w", err)
	}
	byID := make(map[int64]*media.Media, len(rows))
	for i := range rows {
		byID[rows[i].ID] = rows[i].toDomain()
	}
	return inIDOrder(ids, byID), nil
}

// mediaOrder is the sort keys of each of domain.MediaOrderings; the id
// breaks ties so that pages do not overlap.
var mediaOrder = map[string][]sortKey{
	"":            {{"m.created_on", true}, {"m.id", true}},
	"-created_on": {{"m.created_on", true}, {"m.id", true}},
	"created_on":  {{"m.created_on", false}, {"m.id", false}},
	"name":        {{"m.name", false}, {"m.id", false}},
	"-name":       {{"m.name", true}, {"m.id", true}},
}

// mediaUsed is true for a media a product uses; RenameMedia asks the same.
const mediaUsed = `(EXISTS (SELECT 1 FROM voucher_prototype_images i WHERE i.media_id = m.id)
	OR EXISTS (SELECT 1 FROM voucher_prototypes vp WHERE vp.cover_image_id = m.id))`

// mediaList is the list of the media f selects.
func mediaList(f media.MediaFilter) list {
	conds, args := []string{"TRUE"}, []any(nil) // bun warns of a WHERE with an empty, non-nil list of arguments
	if f.PartnerID != nil {
		conds, args = append(conds, "m.partner_id = ?"), append(args, *f.PartnerID)
	}
	if f.Search != "" {
		conds, args = append(conds, `m.name ILIKE ? ESCAPE '\'`), append(args, "%"+likeEscape(f.Search)+"%")
	}
	if f.ContentType != "" {
		conds, args = append(conds, "m.content_type = ?"), append(args, f.ContentType)
	}
	switch {
	case f.Unused != nil && *f.Unused:
		conds = append(conds, "NOT "+mediaUsed)
	case f.Unused != nil:
		conds = append(conds, mediaUsed)
	}
	return list{from: "media m", where: strings.Join(conds, " AND "), args: args, id: "m.id"}
}

// ListMedia returns a page of the media f selects and their count: a
// numbered page, or a keyset page (Size+1 rows in its reading direction).
func (s *MediaStore) ListMedia(ctx context.Context, f media.MediaFilter, page domain.PageRequest) ([]media.Media, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	keys, ok := mediaOrder[f.Ordering]
	if !ok {
		return nil, 0, fmt.Errorf("order media by %q: not an ordering", f.Ordering)
	}
	l := mediaList(f)
	count, err := l.count(ctx, s.db, page)
	if err != nil {
		return nil, 0, err
	}
	var rows []mediaRow
	if err := l.page(keys, page).apply(s.db, s.db.NewSelect().Model(&rows)).Scan(ctx); err != nil {
		return nil, 0, fmt.Errorf("list media: %w", err)
	}
	out := make([]media.Media, len(rows))
	for i := range rows {
		out[i] = *rows[i].toDomain()
	}
	return out, count, nil
}

// LockMedia reads the media FOR UPDATE, which waits for (and blocks) the
// FOR KEY SHARE lock that inserting a voucher_prototype_images row or
// setting a cover_image_id takes on it, so "not used" stays true until the
// transaction ends.
func (s *MediaStore) LockMedia(ctx context.Context, id int64) (*media.Media, bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(mediaRow)
	if err := s.db.NewSelect().Model(row).Where("m.id = ?", id).For("UPDATE").Scan(ctx); err != nil {
		return nil, false, notFound(err)
	}
	var used bool
	if err := s.db.NewRaw("SELECT "+mediaUsed+" FROM media m WHERE m.id = ?", id).Scan(ctx, &used); err != nil {
		return nil, false, fmt.Errorf("media usage: %w", err)
	}
	return row.toDomain(), used, nil
}

// SetMediaName renames the media.
func (s *MediaStore) SetMediaName(ctx context.Context, id int64, name string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewUpdate().Model((*mediaRow)(nil)).Set("name = ?", name).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("rename media: %w", err)
	}
	return nil
}

// MediaStores binds the media area's stores to db, a pool or a
// transaction.
func MediaStores(db bun.IDB) media.Stores {
	return media.Stores{Media: &MediaStore{db: db}, Partners: &PartnerStore{db: db}}
}
