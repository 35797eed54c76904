package graph

import (
	"context"
	"salesplatform/graph/model"
)

// CreateMarketingWidgets is the resolver for the createMarketingWidgets field.
func (r *mutationResolver) CreateMarketingWidgets(ctx context.Context, input model.MarketingWidgetsInput) (*model.MarketingWidgetsPayload, error) {
	in, err := toDomainWidgets(input)
	if err != nil {
		return nil, err
	}
	return marketingWidgetsPayload(r.Widgets.CreatePartnerWidgets(ctx, in))
}

// UpdateMarketingWidgets is the resolver for the updateMarketingWidgets field.
func (r *mutationResolver) UpdateMarketingWidgets(ctx context.Context, input model.MarketingWidgetsInput) (*model.MarketingWidgetsPayload, error) {
	in, err := toDomainWidgets(input)
	if err != nil {
		return nil, err
	}
	return marketingWidgetsPayload(r.Widgets.UpdatePartnerWidgets(ctx, in))
}

// MarketingWidgets is the resolver for the marketingWidgets field.
func (r *queryResolver) MarketingWidgets(ctx context.Context, key string) (*model.MarketingWidgets, error) {
	return converted(toGraphMarketingWidgets)(r.Widgets.Widgets(ctx, key))
}
