package app

import (
	"context"
	"io"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// Exported for the tests of package app_test.
var (
	DemoAdminPrototypes    = demoAdminPrototypes
	DemoBoxes              = demoBoxes
	DemoEnvironments       = demoEnvironments
	DemoEvents             = demoEvents
	DemoGiftcardPrototypes = demoGiftcardPrototypes
	DemoGifts              = demoGifts
	DemoOptionCategories   = demoOptionCategories
	DemoOptions            = demoOptions
	DemoPartnerPermissions = demoPartnerPermissions
	DemoPartners           = demoPartners
	DemoSeller             = demoSeller
	DemoStaff              = demoStaff
	DemoThemes             = demoThemes
	DemoUniverses          = demoUniverses
	DemoVoucherPrototypes  = demoVoucherPrototypes
	DemoWorkshopCategories = demoWorkshopCategories
	DemoWorkshopTags       = demoWorkshopTags
	DemoWorkshops          = demoWorkshops
	NewDemoLoader          = newDemoLoader
	SeedDemoAccounts       = seedDemoAccounts
)

// LoadDemoCatalogueOnly loads the demo accounts and catalogue in tx without
// the administration part, as a seed written before that part existed did.
func LoadDemoCatalogueOnly(ctx context.Context, tx bun.Tx) error {
	accounts, err := seedDemoAccounts(ctx, tx, io.Discard)
	if err != nil {
		return err
	}
	partners := map[string]*domain.Partner{}
	for _, a := range accounts {
		partners[a.Demo.Key] = a.Partner
	}
	return newDemoLoader(tx, partners, time.Now()).load(ctx)
}
