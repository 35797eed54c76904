package payments_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/payments"
	"salesplatform/persistence/dbtest"

	"github.com/google/uuid"
)

// Documents of each accepted kind, and one that is not.
var (
	kycPDF  = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
	kycText = []byte("This is a plain text file, named scan.pdf by its sender.\n")
)

func kycImage(t *testing.T, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	var err error
	if format == "png" {
		err = png.Encode(&b, img)
	} else {
		err = jpeg.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func kycUpload(p *payments.Partner, file []byte, kv ...string) payments.KYCUpload {
	fields := map[string]string{"partner_uuid": p.UUID.String(), "comment": "Passport of Anne Dupont", "document_type": "IDENTITY_PROOF"}
	for i := 0; i+1 < len(kv); i += 2 {
		fields[kv[i]] = kv[i+1]
	}
	in := payments.KYCUpload{Files: 1, File: bytes.NewReader(file)}
	if file == nil {
		in.Files, in.File = 0, nil
	}
	for field, dest := range map[string]*domain.Optional[string]{"comment": &in.Comment, "document_type": &in.DocumentType} {
		if v, ok := fields[field]; ok && v != "-" {
			*dest = domain.Some(v)
		}
	}
	if v := fields["partner_uuid"]; v != "-" {
		if id, err := uuid.Parse(v); err == nil {
			in.PartnerUUID = domain.Some(id)
		} else {
			in.Refuse(domain.VInvalid, domain.MsgUUID, "partner_uuid")
		}
	}
	return in
}

func TestUploadKYCDocuments(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	for _, c := range []struct {
		name, docType, contentType string
		file                       []byte
		ctx                        context.Context
	}{
		{"PDF by the referrer", "REGISTRATION_PROOF", "application/pdf", kycPDF, f.asMarket},
		{"PNG by the partner", "ADDRESS_PROOF", "image/png", kycImage(t, "png"), asOwn(p)},
		{"JPEG by staff", "SHAREHOLDER_DECLARATION", "image/jpeg", kycImage(t, "jpeg"), dbtest.AsStaff()},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := f.svc.UploadKYCDocument(c.ctx, kycUpload(p, c.file, "document_type", c.docType))
			if err != nil {
				t.Fatal(err)
			}
			if d.ID == 0 || d.PartnerID != p.ID || d.PartnerUUID != p.UUID || d.DocumentType != c.docType ||
				d.Comment != "Passport of Anne Dupont" || d.ContentType != c.contentType || d.Size != int64(len(c.file)) {
				t.Errorf("document %+v", d)
			}
			stored, err := os.ReadFile(filepath.Join(f.blobDir, d.BlobKey))
			if err != nil || !bytes.Equal(stored, c.file) {
				t.Errorf("blob %s: %v", d.BlobKey, err)
			}
		})
	}
	if n := f.count(t, `SELECT count(*) FROM kyc_documents WHERE partner_id = ?`, p.ID); n != 3 {
		t.Errorf("%d documents, want 3", n)
	}
}

func TestUploadKYCDocumentRefusals(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	unknown := "0b6f6a38-0c1e-4a57-b2ab-5c1f2a0e9d11"
	for _, c := range []struct {
		name string
		in   payments.KYCUpload
		want map[string]string
	}{
		{"text named .pdf", kycUpload(p, kycText), map[string]string{"file": payments.MsgKYCFileType}},
		{"a GIF", kycUpload(p, []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")), map[string]string{"file": payments.MsgKYCFileType}},
		{"a PNG header alone", kycUpload(p, []byte("\x89PNG\r\n\x1a\n")), map[string]string{"file": payments.MsgKYCFileType}},
		{"empty", kycUpload(p, []byte{}), map[string]string{"file": payments.MsgEmptyFile}},
		{"no file", kycUpload(p, nil), map[string]string{"file": payments.MsgNoFile}},
		{"two files", func() payments.KYCUpload { in := kycUpload(p, kycPDF); in.Files = 2; return in }(),
			map[string]string{"file": payments.MsgOneFile}},
		{"no partner_uuid", kycUpload(p, kycPDF, "partner_uuid", "-"), map[string]string{"partner_uuid": domain.MsgRequired}},
		{"no comment", kycUpload(p, kycPDF, "comment", "-"), map[string]string{"comment": domain.MsgRequired}},
		{"no document_type", kycUpload(p, kycPDF, "document_type", "-"), map[string]string{"document_type": domain.MsgRequired}},
		{"every field missing", payments.KYCUpload{}, map[string]string{"file": payments.MsgNoFile,
			"partner_uuid": domain.MsgRequired, "comment": domain.MsgRequired, "document_type": domain.MsgRequired}},
		{"blank comment", kycUpload(p, kycPDF, "comment", "  "), map[string]string{"comment": domain.MsgBlank}},
		{"long comment", kycUpload(p, kycPDF, "comment", strings.Repeat("é", 1001)),
			map[string]string{"comment": "Ensure this field has no more than 1000 characters."}},
		{"unknown type", kycUpload(p, kycPDF, "document_type", "PASSPORT"), map[string]string{"document_type": `"PASSPORT" is not a valid choice.`}},
		{"bad uuid", kycUpload(p, kycPDF, "partner_uuid", "nope"), map[string]string{"partner_uuid": domain.MsgUUID}},
		{"unknown partner", kycUpload(p, kycPDF, "partner_uuid", unknown), map[string]string{"partner_uuid": fmt.Sprintf(payments.MsgPartnerUnknown, unknown)}},
		{"partner outside the hub", kycUpload(&payments.Partner{UUID: f.market.UUID}, kycPDF),
			map[string]string{"partner_uuid": fmt.Sprintf(payments.MsgPartnerUnknown, f.market.UUID)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.UploadKYCDocument(f.asMarket, c.in)
			dbtest.WantFieldErrors(t, err, c.want)
		})
	}
	// Another marketplace does not see the partner; the referrer's member
	// without the permission may not upload.
	_, err := f.svc.UploadKYCDocument(f.asRival, kycUpload(p, kycPDF))
	dbtest.WantFieldErrors(t, err, map[string]string{"partner_uuid": fmt.Sprintf(payments.MsgPartnerUnknown, p.UUID)})
	_, err = f.svc.UploadKYCDocument(asMember(f.market, 7), kycUpload(p, kycPDF))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	// Past the limit.
	big := append(append([]byte{}, kycPDF...), make([]byte, payments.MaxKYCBytes)...)
	_, err = f.svc.UploadKYCDocument(f.asMarket, kycUpload(p, big))
	dbtest.WantCode(t, err, domain.CodeTooLarge)
	if n := f.count(t, `SELECT count(*) FROM kyc_documents`); n != 0 {
		t.Errorf("%d documents written", n)
	}
	if entries, _ := os.ReadDir(f.blobDir); len(entries) != 0 {
		t.Errorf("%d blobs written", len(entries))
	}
}

func TestUploadKYCDocumentIdempotencyKey(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	upload := func(file []byte) (*payments.KYCDocument, error) {
		ctx, err := idempotency.WithKey(f.asMarket, "kyc-1")
		if err != nil {
			t.Fatal(err)
		}
		return f.svc.UploadKYCDocument(ctx, kycUpload(p, file))
	}
	first, err := upload(kycPDF)
	if err != nil {
		t.Fatal(err)
	}
	again, err := upload(kycPDF)
	if err != nil || again.ID != first.ID {
		t.Errorf("repeat: %v %+v", err, again)
	}
	_, err = upload(kycImage(t, "png"))
	dbtest.WantCode(t, err, domain.CodeUnprocessable)
	if entries, _ := os.ReadDir(f.blobDir); len(entries) != 1 || f.count(t, `SELECT count(*) FROM kyc_documents`) != 1 {
		t.Errorf("%d blobs, want 1 document", len(entries))
	}
}
