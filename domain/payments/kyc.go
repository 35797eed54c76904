package payments

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // registers the decoders image.DecodeConfig checks with
	_ "image/png"
	"io"
	"net/http"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
)

// KYC documents: the documents a provider needs to know the partner
// (identity of its legal representative, registration, articles,
// shareholders, address). Their bytes are kept in the blob store under
// fresh keys that no public route serves; the row keeps what the API
// shows and what the upload checked.

// KYCDocumentTypes are the kinds of KYC documents.
var KYCDocumentTypes = []string{"IDENTITY_PROOF", "REGISTRATION_PROOF", "ARTICLES_OF_ASSOCIATION",
	"SHAREHOLDER_DECLARATION", "ADDRESS_PROOF"}

// KYC limits.
const (
	// MaxKYCBytes bounds a KYC document: a scan or a PDF of a few pages.
	MaxKYCBytes = 10 << 20
	// MaxKYCCommentLength bounds the comment.
	MaxKYCCommentLength = 1000
)

// kycTypes are the accepted formats, by the content type
// http.DetectContentType sniffs from the first bytes, with the decoder
// name image.DecodeConfig gives images ("" for PDF, whose header alone is
// checked).
var kycTypes = map[string]string{
	"application/pdf": "",
	"image/jpeg":      "jpeg",
	"image/png":       "png",
}

// Messages of refused KYC uploads (DRF's FileField where it has one).
const (
	MsgNoFile       = "No file was submitted."
	MsgEmptyFile    = "The submitted file is empty."
	MsgOneFile      = "Send exactly one file per request."
	MsgKYCFileType  = "Upload a PDF, JPEG or PNG document: the file's content is none of them."
	MsgFileTooLarge = "The file is too large: the limit is %d bytes."
)

// KYCDocument is a KYC document of a payment-hub partner.
type KYCDocument struct {
	ID           int64
	PartnerID    int64
	PartnerUUID  uuid.UUID
	Comment      string
	DocumentType string // one of KYCDocumentTypes
	ContentType  string // sniffed: application/pdf, image/jpeg or image/png
	Size         int64
	SHA256       string // hex, of the bytes
	BlobKey      string
	UploadedBy   *int64
	CreatedOn    time.Time
}

// KYCStore keeps KYC documents' rows.
type KYCStore interface {
	// CreateKYCDocument inserts d and sets its ID and CreatedOn.
	CreateKYCDocument(ctx context.Context, d *KYCDocument) error
	// KYCDocument returns the document with that id and its partner's
	// uuid; domain.ErrNotFound when there is none.
	KYCDocument(ctx context.Context, id int64) (*KYCDocument, error)
}

// KYCUpload is an upload.
type KYCUpload struct {
	domain.Refusals
	PartnerUUID           domain.Optional[uuid.UUID]
	Comment, DocumentType domain.Optional[string]
	// File is the file (a temporary file: it is read where it lies, its
	// head checked and hashed, then copied to the blob store); past
	// MaxKYCBytes it is refused.
	File io.ReadSeeker
	// Files is how many files the request carried: one per document.
	Files int
}

// kycInput is what identifies an upload for its idempotency key: the
// fields and a hash of the bytes.
type kycInput struct {
	PartnerUUID  uuid.UUID `json:"partner_uuid"`
	Comment      string    `json:"comment"`
	DocumentType string    `json:"document_type"`
	SHA256       string    `json:"sha256"`
}

// UploadKYCDocument checks and keeps a KYC document of a payment-hub
// partner (once per idempotency key). Every field is required: file (one
// PDF, JPEG or PNG by its content, whatever its name or declared type, at
// most MaxKYCBytes), partner_uuid, comment (at most MaxKYCCommentLength
// characters), document_type (KYCDocumentTypes). The blob is written
// first, then the row; when the row cannot be written (or its transaction
// fails) the blob is deleted.
// Callers: as ActivatePayments.
// Errors: those of Authorize(OpPaymentPartnerRead); CodeTooLarge past
// MaxKYCBytes; CodeInvalid with every field error (a partner_uuid naming
// no payment-hub partner the caller sees is one); those of authorizeWrite
// but CodeNotFound.
func (s *HubPartnerService) UploadKYCDocument(ctx context.Context, in KYCUpload) (*KYCDocument, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	partnerUUID := f.UUID("partner_uuid", in.PartnerUUID, true)
	comment := f.String("comment", in.Comment, true, false, MaxKYCCommentLength)
	docType := f.Choice("document_type", in.DocumentType, true, KYCDocumentTypes)
	var size int64
	var contentType string
	switch {
	case in.Files > 1:
		v.Add(domain.VInvalid, MsgOneFile, "file")
	case in.File == nil:
		v.Add(domain.VRequired, MsgNoFile, "file")
	default:
		var head []byte
		size, head, err = domain.UploadHead(in.File)
		switch {
		case err != nil:
			return nil, fmt.Errorf("read the uploaded file: %w", err)
		case size > MaxKYCBytes:
			return nil, &domain.Error{Code: domain.CodeTooLarge, Message: fmt.Sprintf(MsgFileTooLarge, MaxKYCBytes)}
		}
		if contentType, err = kycContentType(v, head, in.File); err != nil {
			return nil, err
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, in.File); err != nil {
		return nil, fmt.Errorf("read the uploaded file: %w", err)
	}
	doc := &KYCDocument{Comment: *comment, DocumentType: *docType, ContentType: contentType, Size: size,
		SHA256: hex.EncodeToString(sum.Sum(nil)), UploadedBy: &c.User.ID}
	input := kycInput{PartnerUUID: *partnerUUID, Comment: doc.Comment, DocumentType: doc.DocumentType, SHA256: doc.SHA256}
	// The work is written out rather than partnerGuarded: the blob is
	// written outside any transaction (the blob store is another system),
	// after the partner is checked, and deleted when the row's
	// transaction then fails (the row, the key's completion, the commit).
	return idempotency.Run(ctx, s.keys, "payments.kyc_document.create", input, func(ctx context.Context, complete idempotency.Complete[*KYCDocument]) (idempotency.Done[*KYCDocument], error) {
		var done idempotency.Done[*KYCDocument]
		p, err := s.uow.Stores().Partners.FindHubPartner(ctx, *partnerUUID, false)
		if err != nil && !domain.IsCode(err, domain.CodeNotFound) {
			return done, err
		}
		if err == nil {
			err = authorizeWrite(ctx, relationOf(c, p))
		}
		if domain.IsCode(err, domain.CodeNotFound) {
			partnerNotFound(v, *partnerUUID)
			return done, v.Err()
		}
		if err != nil {
			return done, err
		}
		doc.PartnerID, doc.PartnerUUID, doc.BlobKey = p.ID, p.UUID, "kyc-"+uuid.NewString()
		if _, err := in.File.Seek(0, io.SeekStart); err != nil {
			return done, fmt.Errorf("rewind the uploaded file: %w", err)
		}
		if err := s.blobs.Put(ctx, doc.BlobKey, doc.ContentType, in.File, doc.Size); err != nil {
			return done, fmt.Errorf("store KYC document blob: %w", err)
		}
		// A partner gone meanwhile fails the insert (its foreign key).
		err = s.uow.RunInTx(ctx, func(ctx context.Context, tx PartnerStores) error {
			if err := tx.KYC.CreateKYCDocument(ctx, doc); err != nil {
				return err
			}
			var err error
			done, err = complete(ctx, tx.Keys, doc)
			return err
		})
		if err != nil {
			if derr := s.blobs.Delete(context.WithoutCancel(ctx), doc.BlobKey); derr != nil {
				err = errors.Join(err, fmt.Errorf("delete the orphan blob %s: %w", doc.BlobKey, derr))
			}
		}
		return done, err
	})
}

// kycContentType is the content type of an accepted document, decided by
// its content (head, its first bytes, and f, which it leaves rewound): the
// sniffed type must be one of kycTypes and, for an image, its decoder must
// read the header as that format. A refusal is a field error on "file".
func kycContentType(v *domain.Validator, head []byte, f io.ReadSeeker) (string, error) {
	if len(head) == 0 {
		v.Add(domain.VInvalid, MsgEmptyFile, "file")
		return "", nil
	}
	ct := http.DetectContentType(head)
	format, ok := kycTypes[ct]
	if ok && format != "" {
		cfg, decoded, err := image.DecodeConfig(f)
		if _, serr := f.Seek(0, io.SeekStart); serr != nil {
			return "", fmt.Errorf("rewind the uploaded file: %w", serr)
		}
		ok = err == nil && decoded == format && cfg.Width > 0 && cfg.Height > 0
	}
	if !ok || (format == "" && !bytes.HasPrefix(head, []byte("%PDF-"))) {
		v.Add(domain.VInvalid, MsgKYCFileType, "file")
		return "", nil
	}
	return ct, nil
}

// KYCDocument returns the KYC document with that id to those who read its
// partner (GetPartner): its members, its referrer's, staff. Its bytes are
// never answered.
// Errors: those of Authorize(OpPaymentPartnerRead); CodeNotFound for an
// unknown document or one of a partner the caller does not see.
func (s *HubPartnerService) KYCDocument(ctx context.Context, id int64) (*KYCDocument, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead)
	if err != nil {
		return nil, err
	}
	st := s.uow.Stores()
	doc, err := st.KYC.KYCDocument(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := st.Partners.FindHubPartner(ctx, doc.PartnerUUID, false)
	if err != nil {
		return nil, err
	}
	if relationOf(c, p) == unrelated {
		return nil, domain.ErrNotFound
	}
	return doc, nil
}
