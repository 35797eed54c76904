package graph

import (
	"context"
	"salesplatform/domain/media"
	"salesplatform/graph/model"
)

// ID is the resolver for the id field.
func (r *mediaResolver) ID(ctx context.Context, obj *model.Media) (string, error) {
	return globalID("Media", obj.ID), nil
}

// UploadMedia is the resolver for the uploadMedia field.
func (r *mutationResolver) UploadMedia(ctx context.Context, input model.UploadMediaInput) (*model.MediaPayload, error) {
	in := media.MediaUpload{Name: &input.Name, File: input.File.File, Files: 1}
	if id, _ := input.PartnerUUID.ValueOK(); id != nil {
		s := id.String()
		in.PartnerUUID = &s
	}
	return r.mediaPayload(r.MediaLibrary.Upload(ctx, in))
}

// RenameMedia is the resolver for the renameMedia field.
func (r *mutationResolver) RenameMedia(ctx context.Context, input model.RenameMediaInput) (*model.MediaPayload, error) {
	id, err := parseID(input.ID)
	if err != nil {
		return nil, err
	}
	return r.mediaPayload(r.MediaLibrary.Rename(ctx, id, map[string]any{"name": input.Name}))
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

type mediaResolver struct{ *Resolver }
