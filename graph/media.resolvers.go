package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/media"
	"salesplatform/graph/model"
)

// Field is the resolver for the field field.
func (r *mediaErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *mediaErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.MediaErrorCode, error) {
	return errorCode[model.MediaErrorCode](obj.Code), nil
}

// UploadMedia is the resolver for the uploadMedia field.
func (r *mutationResolver) UploadMedia(ctx context.Context, input model.UploadMediaInput) (*model.MediaPayload, error) {
	in := media.MediaUpload{Name: &input.Name, File: input.File.File, Files: 1}
	partner, err := r.partnerRef(ctx, input.PartnerID, opt(input.PartnerUUID))
	if err != nil {
		return nil, err
	}
	if partner != nil {
		s := partner.String()
		in.PartnerUUID = &s
	}
	m, err := r.MediaLibrary.Upload(ctx, in)
	return r.mediaPayload(m, partnerErrors(err, "partner_uuid", input.PartnerID, input.PartnerUUID, "partnerUuid"))
}

// RenameMedia is the resolver for the renameMedia field.
func (r *mutationResolver) RenameMedia(ctx context.Context, input model.RenameMediaInput) (*model.MediaPayload, error) {
	id, err := recordID("Media", input.ID)
	if err != nil {
		return nil, err
	}
	return r.mediaPayload(r.MediaLibrary.Rename(ctx, id, media.RenameInput{Name: domain.Some(input.Name)}))
}

// Media is the resolver for the media field.
func (r *queryResolver) Media(ctx context.Context, first *int, after *string, last *int, before *string, filter *model.MediaFilter, orderBy *model.MediaOrder) (*model.MediaConnection, error) {
	return r.mediaConnection(ctx, nil, pageArgs{first, after, last, before}, filter, orderBy)
}

// MediaItem is the resolver for the mediaItem field.
func (r *queryResolver) MediaItem(ctx context.Context, id string) (*model.Media, error) {
	key, err := lookupKey("Media", id)
	if err != nil {
		return nil, err
	}
	return r.mediaItem(ctx, key)
}

// Media returns MediaResolver implementation.
func (r *Resolver) Media() MediaResolver { return &mediaResolver{r} }

// MediaError returns MediaErrorResolver implementation.
func (r *Resolver) MediaError() MediaErrorResolver { return &mediaErrorResolver{r} }

type (
	mediaResolver      struct{ *Resolver }
	mediaErrorResolver struct{ *Resolver }
)
