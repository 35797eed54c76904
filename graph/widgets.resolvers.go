package graph

import (
	"context"
	"salesplatform/graph/model"
)

// CreateMarketingWidgets is the resolver for the createMarketingWidgets field.
func (r *mutationResolver) CreateMarketingWidgets(ctx context.Context, input model.MarketingWidgetsInput) (*model.MarketingWidgetsPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	in := toDomainWidgets(partnerID, input)
	return marketingWidgetsPayload(r.Widgets.CreatePartnerWidgets(ctx, in))
}

// UpdateMarketingWidgets is the resolver for the updateMarketingWidgets field.
func (r *mutationResolver) UpdateMarketingWidgets(ctx context.Context, input model.MarketingWidgetsInput) (*model.MarketingWidgetsPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	in := toDomainWidgets(partnerID, input)
	return marketingWidgetsPayload(r.Widgets.UpdatePartnerWidgets(ctx, in))
}

// MarketingWidgets is the resolver for the marketingWidgets field.
func (r *queryResolver) MarketingWidgets(ctx context.Context, key string) (*model.MarketingWidgets, error) {
	return converted(toGraphMarketingWidgets)(r.Widgets.Widgets(ctx, key))
}

// Field is the resolver for the field field.
func (r *widgetErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *widgetErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.WidgetErrorCode, error) {
	return errorCode[model.WidgetErrorCode](obj.Code), nil
}

// WidgetError returns WidgetErrorResolver implementation.
func (r *Resolver) WidgetError() WidgetErrorResolver { return &widgetErrorResolver{r} }

type widgetErrorResolver struct{ *Resolver }
