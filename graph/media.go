package graph

import (
	"strconv"

	"salesplatform/domain/media"
	"salesplatform/graph/model"
)

// Converters of the media (graph/schema/admin_media.graphqls).

func (r *Resolver) toGraphMedia(m *media.Media) *model.Media {
	return &model.Media{
		ID: strconv.FormatInt(m.ID, 10), GlobalID: numericGlobalID("Media", m.ID), PartnerID: strconv.FormatInt(m.PartnerID, 10), UUID: m.UUID, Name: m.Name,
		CreatedOn: m.CreatedOn, ArchivedOn: m.ArchivedOn, URL: r.MediaLibrary.URL(m),
		ContentType: m.ContentType, Size: int(m.Size), Width: m.Width, Height: m.Height,
	}
}

// mediaPayload answers a media mutation: input errors as userErrors, the
// rest (NOT_FOUND, CONFLICT, FORBIDDEN…) as GraphQL errors.
func (r *Resolver) mediaPayload(m *media.Media, err error) (*model.MediaPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.MediaPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.MediaPayload{Media: r.toGraphMedia(m), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// mediaContentTypes are the content types of the graph's MediaContentType.
var mediaContentTypes = map[model.MediaContentType]string{
	model.MediaContentTypePng: "image/png", model.MediaContentTypeJpeg: "image/jpeg",
	model.MediaContentTypeGif: "image/gif", model.MediaContentTypeWebp: "image/webp",
}

// mediaFilter reads the media connection's filter and order.
func mediaFilter(f *model.MediaFilter, orderBy *model.MediaOrder) media.MediaFilter {
	var out media.MediaFilter
	if orderBy != nil {
		out.Ordering = ordering(orderBy.Field, orderBy.Direction)
	}
	if f == nil {
		return out
	}
	if s := opt(f.Search); s != nil {
		out.Search = *s
	}
	if t := opt(f.ContentType); t != nil {
		out.ContentType = mediaContentTypes[*t]
	}
	out.Unused = opt(f.Unused)
	return out
}
