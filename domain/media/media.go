package media

import (
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers the decoders image.DecodeConfig checks with
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	_ "golang.org/x/image/webp"

	"salesplatform/domain"
)

// Media of the administration API: images a partner uploads and later links
// to its products. The bytes live in a domain.BlobStore under a generated key; the
// row keeps what the API shows and what the upload checked.
type Media struct {
	ID          int64
	UUID        uuid.UUID
	PartnerID   int64
	Name        string
	BlobKey     string
	ContentType string
	Size        int64
	Width       int
	Height      int
	CreatedOn   time.Time
	ArchivedOn  *time.Time
}

// Media limits (docs/admin-media.md).
const (
	// MaxMediaBytes bounds an uploaded file.
	MaxMediaBytes = 10 << 20
	// MaxMediaPixels bounds width*height as the file declares them, so that
	// a small file cannot claim a huge bitmap (a decompression bomb) that a
	// site or a thumbnailer would later decode.
	MaxMediaPixels = 50_000_000
	// MediaPageSize is the default and the maximum page size of the media
	// list.
	MediaPageSize = 100
)

// mediaTypes are the image formats accepted, by sniffed content type, with
// the name image.DecodeConfig gives each.
var mediaTypes = map[string]string{
	"image/png":  "png",
	"image/jpeg": "jpeg",
	"image/gif":  "gif",
	"image/webp": "webp",
}

// Messages of the media inputs (DRF's ImageField where it has one).
const (
	msgNoFile       = "No file was submitted."
	msgEmptyFile    = "The submitted file is empty."
	msgNotAnImage   = "Upload a valid image. The file you uploaded was either not an image or a corrupted image."
	msgImageTooBig  = "The image is too large: at most %d pixels (width times height)."
	msgFileTooLarge = "The file is too large: the limit is %d bytes."
	msgOneFile      = "Send exactly one file per request."
	msgMediaInUse   = "This media is used by a product and can no longer be renamed."
)

// MediaStore keeps media rows.
type MediaStore interface {
	// CreateMedia inserts m and sets its ID, UUID and CreatedOn.
	CreateMedia(ctx context.Context, m *Media) error
	// GetMedia returns the media with that id; ErrNotFound when none.
	GetMedia(ctx context.Context, id int64) (*Media, error)
	// FindMediaByUUID returns the media with that uuid; ErrNotFound when none.
	FindMediaByUUID(ctx context.Context, id uuid.UUID) (*Media, error)
	// MediaByID returns the media in ids order, nil for an id that names
	// none.
	MediaByID(ctx context.Context, ids []int64) ([]*Media, error)
	// ListMedia returns a page of the media f selects (f.PartnerID nil:
	// every partner's), in f's ordering, and how many it selects.
	ListMedia(ctx context.Context, f MediaFilter, page domain.PageRequest) ([]Media, int, error)
	// LockMedia returns the media and whether a product uses it, holding
	// its row until the transaction ends, so that no product can start
	// using it meanwhile; ErrNotFound when there is none.
	LockMedia(ctx context.Context, id int64) (m *Media, used bool, err error)
	// SetMediaName renames the media.
	SetMediaName(ctx context.Context, id int64, name string) error
}

// Stores are the stores the media service reads and writes with.
type Stores struct {
	Media    MediaStore
	Partners domain.PartnerStore
}

// MediaService uploads, lists and renames media, and serves their bytes.
type MediaService struct {
	uow     domain.UnitOfWork[Stores]
	blobs   domain.BlobStore
	baseURL string
}

// NewMediaService returns the service; publicBaseURL prefixes media URLs.
func NewMediaService(uow domain.UnitOfWork[Stores], blobs domain.BlobStore, publicBaseURL string) *MediaService {
	return &MediaService{uow: uow, blobs: blobs, baseURL: strings.TrimSuffix(publicBaseURL, "/")}
}

// URL is where the media's bytes are served (GET /media/{uuid}).
func (s *MediaService) URL(m *Media) string { return s.baseURL + "/media/" + m.UUID.String() }

// MediaUpload is an upload: nil fields were not sent.
type MediaUpload struct {
	Name        *string
	PartnerUUID *string
	// File is the file (a temporary file: it is read where it lies, its
	// head checked, then copied to the blob store); past MaxMediaBytes it
	// is refused.
	File io.ReadSeeker
	// Files is how many files the request carried: one media per request.
	Files int
}

// Upload checks and stores an image as a new media of the caller's partner
// (staff: of the partner PartnerUUID names). The file must be a PNG, JPEG,
// GIF or WebP image by its content, whatever its name or declared type. The
// blob is written first, then the row; when the row cannot be written, the
// blob is deleted.
// Errors: those of Authorize(OpMediaWrite); CodeInvalid on "name", "file"
// and "partner_uuid"; CodeTooLarge past MaxMediaBytes.
func (s *MediaService) Upload(ctx context.Context, in MediaUpload) (*Media, error) {
	c, err := domain.Authorize(ctx, domain.OpMediaWrite)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	name := mediaName(&v, domain.FromPtr(in.Name))
	var size int64
	var info imageInfo
	switch {
	case in.Files > 1:
		v.Add(domain.VInvalid, msgOneFile, "file")
	case in.File == nil:
		v.Add(domain.VRequired, msgNoFile, "file")
	default:
		var head []byte
		size, head, err = domain.UploadHead(in.File)
		switch {
		case err != nil:
			return nil, fmt.Errorf("read the uploaded file: %w", err)
		case size > MaxMediaBytes:
			return nil, &domain.Error{Code: domain.CodeTooLarge, Message: fmt.Sprintf(msgFileTooLarge, MaxMediaBytes)}
		}
		if info, err = checkImage(&v, head, in.File); err != nil {
			return nil, err
		}
	}
	var partnerUUID *uuid.UUID
	if in.PartnerUUID != nil && strings.TrimSpace(*in.PartnerUUID) != "" { // a blank form field is no value
		if id, err := uuid.Parse(strings.TrimSpace(*in.PartnerUUID)); err == nil {
			partnerUUID = &id
		} else {
			v.Add(domain.VInvalid, domain.MsgUUID, "partner_uuid")
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p, err := domain.WritePartner(ctx, s.uow.Stores().Partners, c, partnerUUID, "partner_uuid")
	if err != nil {
		return nil, err
	}

	m := &Media{PartnerID: p.ID, Name: name, BlobKey: uuid.NewString(), ContentType: info.contentType,
		Size: size, Width: info.width, Height: info.height}
	if err := s.blobs.Put(ctx, m.BlobKey, m.ContentType, in.File, m.Size); err != nil {
		return nil, fmt.Errorf("store media blob: %w", err)
	}
	if err := s.uow.Stores().Media.CreateMedia(ctx, m); err != nil {
		if derr := s.blobs.Delete(context.WithoutCancel(ctx), m.BlobKey); derr != nil {
			err = errors.Join(err, fmt.Errorf("delete the orphan blob %s: %w", m.BlobKey, derr))
		}
		return nil, err
	}
	return m, nil
}

// mediaName reads a media name: required (null too), trimmed, at most
// MaxNameLength characters; a refused one is skipped.
func mediaName(v *domain.Validator, o domain.Optional[string]) string {
	if domain.HasFieldError(v, "name") {
		return ""
	}
	name := strings.TrimSpace(o.Value)
	switch {
	case !o.Set || o.Null:
		v.Add(domain.VRequired, domain.MsgRequired, "name")
	case name == "":
		v.Add(domain.VRequired, domain.MsgBlank, "name")
	case strings.ContainsRune(name, 0) || !utf8.ValidString(name):
		v.Add(domain.VInvalid, domain.MsgNullCharacters, "name")
	case utf8.RuneCountInString(name) > domain.MaxNameLength:
		v.Add(domain.VMaxLength, fmt.Sprintf(domain.MsgMaxLength, domain.MaxNameLength), "name")
	}
	return name
}

type imageInfo struct {
	contentType   string
	width, height int
}

// checkImage checks that f is an image of an accepted format by its
// content: the type sniffed from head (its first bytes) and the decoder's
// reading of the header must agree, and the declared size must be within
// MaxMediaPixels. It leaves f rewound.
func checkImage(v *domain.Validator, head []byte, f io.ReadSeeker) (imageInfo, error) {
	if len(head) == 0 {
		v.Add(domain.VInvalid, msgEmptyFile, "file")
		return imageInfo{}, nil
	}
	ct := http.DetectContentType(head)
	format, ok := mediaTypes[ct]
	cfg, decoded, err := image.DecodeConfig(f)
	if _, serr := f.Seek(0, io.SeekStart); serr != nil {
		return imageInfo{}, fmt.Errorf("rewind the uploaded file: %w", serr)
	}
	if !ok || err != nil || decoded != format || cfg.Width <= 0 || cfg.Height <= 0 {
		v.Add(domain.VInvalid, msgNotAnImage, "file")
		return imageInfo{}, nil
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxMediaPixels {
		v.Add(domain.VInvalid, fmt.Sprintf(msgImageTooBig, MaxMediaPixels), "file")
		return imageInfo{}, nil
	}
	return imageInfo{contentType: ct, width: cfg.Width, height: cfg.Height}, nil
}

// ParseMediaPage reads page and page_size for the media list: as ParsePage,
// but the default page size is the maximum, MediaPageSize.
func ParseMediaPage(page, pageSize string) (domain.PageRequest, error) {
	if strings.TrimSpace(pageSize) == "" {
		pageSize = fmt.Sprint(MediaPageSize)
	}
	return domain.ParsePage(page, pageSize)
}

// MediaFilter selects media. PartnerID limits them to one partner (the
// graph's Partner.media); the caller's tenancy applies on top. The rest
// are the graph's filters; the REST list has none.
type MediaFilter struct {
	PartnerID   *int64
	Search      string // part of the name, case-insensitive
	ContentType string // an accepted type ("image/png"); "" is any
	// Unused keeps only the media no product uses (true), or only those
	// one uses (false): the ones that may still be renamed, or not.
	Unused   *bool
	Ordering string // one of MediaOrderings; "" is "-created_on"
}

// MediaOrderings are the orderings of a media list; the default is newest
// first.
var MediaOrderings = []string{"-created_on", "created_on", "name", "-name"}

// List returns a page of the media the caller sees (its partner's; every
// partner's for staff) that f selects, newest first unless f orders them
// otherwise. A partner filter the caller does not see gives an empty list.
// Errors: those of Authorize(OpMediaRead); CodeInvalid on "ordering" and
// "contentType"; CodeNotFound "Invalid page." past the last page.
func (s *MediaService) List(ctx context.Context, f MediaFilter, page domain.PageRequest) (*domain.Page[Media], error) {
	return domain.AdminList(ctx, domain.OpMediaRead, f.PartnerID, f.Ordering, MediaOrderings, page,
		func(tenant *int64) ([]Media, int, error) {
			if _, ok := mediaTypes[f.ContentType]; f.ContentType != "" && !ok {
				var v domain.Validator
				v.Add(domain.VInvalid, "Not an image type: "+f.ContentType+".", "contentType")
				return nil, 0, v.Err()
			}
			f.PartnerID = tenant
			return s.uow.Stores().Media.ListMedia(ctx, f, page)
		})
}

// MediaByID returns the media the caller sees in ids order, nil for the
// others (a graph batch: a prototype's images and cover).
// Errors: those of Authorize(OpMediaRead).
func (s *MediaService) MediaByID(ctx context.Context, ids []int64) ([]*Media, error) {
	return domain.VisibleBatch(ctx, domain.OpMediaRead, ids, s.uow.Stores().Media.MediaByID, func(m *Media) int64 { return m.PartnerID })
}

// Get returns a media the caller sees.
// Errors: those of Authorize(OpMediaRead); CodeNotFound for an unknown
// media or another partner's.
func (s *MediaService) Get(ctx context.Context, id int64) (*Media, error) {
	c, err := domain.Authorize(ctx, domain.OpMediaRead)
	if err != nil {
		return nil, err
	}
	m, err := s.uow.Stores().Media.GetMedia(ctx, id)
	if err != nil {
		return nil, err
	}
	if !c.Sees(m.PartnerID) {
		return nil, domain.ErrNotFound
	}
	return m, nil
}

// RenameInput is a media's new name.
type RenameInput struct {
	domain.Refusals
	Name domain.Optional[string]
}

// Rename sets a media's name, only while no product uses it (as an image or
// the cover image of a voucher prototype). The check and the update run
// under a lock of the media row, so a product cannot start using it between
// them.
// Errors: those of Authorize(OpMediaWrite); CodeInvalid on "name";
// CodeNotFound for an unknown media or another partner's; CodeConflict when
// a product uses it.
func (s *MediaService) Rename(ctx context.Context, id int64, in RenameInput) (*Media, error) {
	c, err := domain.Authorize(ctx, domain.OpMediaWrite)
	if err != nil {
		return nil, err
	}
	v := in.Validator()
	if domain.HasFieldError(v, "non_field_errors") { // a body that is no object: no field to read
		return nil, v.Err()
	}
	n := mediaName(v, in.Name)
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out *Media
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		m, used, err := tx.Media.LockMedia(ctx, id)
		switch {
		case err != nil:
			return err
		case !c.Sees(m.PartnerID):
			return domain.ErrNotFound
		case used:
			return &domain.Error{Code: domain.CodeConflict, Message: msgMediaInUse}
		}
		if err := tx.Media.SetMediaName(ctx, id, n); err != nil {
			return err
		}
		m.Name, out = n, m
		return nil
	})
	return out, err
}

// Content returns a media and its bytes for GET /media/{uuid}. It is
// public (partner sites show the images) and needs no caller.
// Errors: CodeNotFound for an unknown or archived media.
func (s *MediaService) Content(ctx context.Context, id uuid.UUID) (*Media, io.ReadCloser, error) {
	m, err := s.uow.Stores().Media.FindMediaByUUID(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if m.ArchivedOn != nil {
		return nil, nil, domain.ErrNotFound
	}
	body, err := s.blobs.Open(ctx, m.BlobKey)
	if err != nil {
		return nil, nil, err
	}
	return m, body, nil
}
