package domain

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"
)

// Authorization of the administration API: the one table of
// who may run which operation. Every administration service method starts
// with Authorize(ctx, its operation); nothing else decides it.

// The permission vocabulary of the legacy permissions operation (Document
// 3, 2.1). The accounts migration seeds the same names.
const (
	PermUpdateVoucherPDF                       = "permissions.update_voucher_pdf"
	PermAccessClickAndCollectBookings          = "permissions.access_click_and_collect_bookings"
	PermManageMasterAdmin                      = "permissions.manage_masteradmin"
	PermAddNetworkGiftcardDirectSale           = "permissions.add_network_giftcard_direct_sale"
	PermExpeditionManagement                   = "permissions.expedition_management"
	PermViewPermissionsTemplate                = "permissions.view_permissionstemplate"
	PermCreateNetworkGiftcardAPI               = "permissions.create_network_giftcard_api"
	PermAccessMarketingHubQRCodes              = "permissions.access_marketing_hub_qr_codes"
	PermAccessWorkshopBookings                 = "permissions.access_workshop_bookings"
	PermAccessCustomerManagementContactRequest = "permissions.access_customer_management_contact_requests"
	PermAccessFinancialOrderLines              = "permissions.access_financial_management_order_lines"
	PermAccessFinancialVoucherReport           = "permissions.access_financial_management_voucher_report"
	PermAccessConfigurationMarketplaces        = "permissions.access_configuration_marketplaces"
	PermUseNetworkGiftcardAPI                  = "permissions.use_network_giftcard_api"
	PermUseVoucher                             = "permissions.use_voucher"
)

// PermissionVocabulary lists every permission name, sorted.
var PermissionVocabulary = []string{
	PermAccessClickAndCollectBookings,
	PermAccessConfigurationMarketplaces,
	PermAccessCustomerManagementContactRequest,
	PermAccessFinancialOrderLines,
	PermAccessFinancialVoucherReport,
	PermAccessMarketingHubQRCodes,
	PermAccessWorkshopBookings,
	PermAddNetworkGiftcardDirectSale,
	PermCreateNetworkGiftcardAPI,
	PermExpeditionManagement,
	PermManageMasterAdmin,
	PermUpdateVoucherPDF,
	PermUseNetworkGiftcardAPI,
	PermUseVoucher,
	PermViewPermissionsTemplate,
}

// AdminOp names an administration operation, REST and GraphQL alike.
type AdminOp string

// Administration operations.
const (
	OpPermissionsRead    AdminOp = "permissions.read"
	OpMediaRead          AdminOp = "media.read"
	OpMediaWrite         AdminOp = "media.write" // upload, rename
	OpGiftcardRead       AdminOp = "giftcard.read"
	OpGiftcardIssue      AdminOp = "giftcard.issue"
	OpVoucherRead        AdminOp = "voucher.read"
	OpVoucherUpdateState AdminOp = "voucher.update_state"
	OpVoucherIssue       AdminOp = "voucher.issue"
	OpPrototypeRead      AdminOp = "voucher_prototype.read" // prototypes, their options, options, categories
	OpPrototypeWrite     AdminOp = "voucher_prototype.write"
	OpOptionWrite        AdminOp = "option.write" // options and option categories
	OpPartnerRead        AdminOp = "partner.read" // a partner's administration record (the graph's adminPartner)
	OpUserRead           AdminOp = "user.read"    // a user account (the graph's User node): one's own, staff any
	// OpCatalogueWrite is every catalogue management mutation (events,
	// workshops, boxes, giftcard prototypes and filings, profile, labels,
	// legal information, terms, product information, widgets).
	OpCatalogueWrite AdminOp = "catalogue.write"
	// OpNetworkGiftcardUse is using a network giftcard at a network
	// partner, and cancelling a usage: the card's marketplace or staff.
	OpNetworkGiftcardUse AdminOp = "network_giftcard.use"
	// OpNetworkGiftcardCreate is making a network giftcard through the
	// API, without a sale.
	OpNetworkGiftcardCreate AdminOp = "network_giftcard.create"
	// OpNetworkGiftcardRead is finding network giftcards and their usages.
	OpNetworkGiftcardRead AdminOp = "network_giftcard.read"
	// OpNetworkGiftcardAdjust is a staff adjustment of a card's remaining
	// value.
	OpNetworkGiftcardAdjust AdminOp = "network_giftcard.adjust"
	// OpNetworkPartnerWrite is creating and updating the partners of a
	// marketplace's network; OpNetworkPartnerRead is checking a partner by
	// company number. Both are a marketplace's (or staff's).
	OpNetworkPartnerWrite AdminOp = "network_partner.write"
	OpNetworkPartnerRead  AdminOp = "network_partner.read"
	// OpNetworkVoucherRead is reading network voucher boxes, their offers,
	// network vouchers and their usages: the box's marketplace or staff.
	OpNetworkVoucherRead AdminOp = "network_voucher.read"
	// OpNetworkVoucherUse is recording a usage of a network voucher at a
	// partner, and cancelling one: the box's marketplace or staff.
	OpNetworkVoucherUse AdminOp = "network_voucher.use"
	// OpMultiProductCartCreate is making a multi-product cart for one's
	// partner (staff: any); OpMultiProductCartRead is reading one back.
	OpMultiProductCartCreate AdminOp = "multi_product_cart.create"
	OpMultiProductCartRead   AdminOp = "multi_product_cart.read"
	// OpPaymentPartnerCreate is creating a payment-hub partner: a
	// marketplace's member, for a partner it refers.
	OpPaymentPartnerCreate AdminOp = "payment_partner.create"
	// OpPaymentPartnerRead is reading a payment-hub partner: its own
	// members and its referrer's.
	OpPaymentPartnerRead AdminOp = "payment_partner.read"
	// OpPaymentPartnerManage is its referrer's changes of a payment-hub
	// partner (its settings, its payments activation, its KYC documents);
	// OpPaymentPartnerSelfManage is the partner's own (its legal
	// representative, its payments activation, its KYC documents).
	OpPaymentPartnerManage     AdminOp = "payment_partner.manage"
	OpPaymentPartnerSelfManage AdminOp = "payment_partner.self_manage"
	// OpPaymentCreate is taking a payment for a payment-hub partner (its
	// own members, its referrer's); OpPaymentRead is reading payments and
	// their transactions; OpPaymentUpdate is dating one for payouts;
	// OpPaymentRefund is giving money back.
	OpPaymentCreate AdminOp = "payment.create"
	OpPaymentRead   AdminOp = "payment.read"
	OpPaymentUpdate AdminOp = "payment.update"
	OpPaymentRefund AdminOp = "payment.refund"
	// OpWalletRead is reading a wallet of the payment hub and its
	// movements; which wallets is the service's rule (payments.WalletService).
	OpWalletRead AdminOp = "wallet.read"
	// OpPayoutRead is reading payout requests (which ones is the
	// service's rule, as for payments); OpPayoutValidate is validating one
	// or marking it paid.
	OpPayoutRead     AdminOp = "payout.read"
	OpPayoutValidate AdminOp = "payout.validate"
	// OpEcommerceRead is reading one's partner's e-commerce products
	// (inactive ones too) and delivery settings; OpEcommerceWrite is
	// creating and changing them.
	OpEcommerceRead  AdminOp = "ecommerce.read"
	OpEcommerceWrite AdminOp = "ecommerce.write"
	// OpWebhookManage is reading and writing one's partner's webhook
	// endpoints (staff: the platform's).
	OpWebhookManage AdminOp = "webhook.manage"
)

// Role is who, beyond a named permission, an operation is open to.
type Role int

const (
	// RoleUser is any authenticated account.
	RoleUser Role = iota
	// RolePartnerMember is an account of a partner (or staff).
	RolePartnerMember
	// RoleStaff is a staff account only.
	RoleStaff
)

// Requirement is what a caller needs for an operation: the role, and when
// Permission is set, that permission too. Staff meet every requirement.
type Requirement struct {
	Role       Role
	Permission string
}

// AdminRules is the table of docs/DECISIONS.md ("Who may call the
// administration API"). Reads are open to a partner's members, since
// GET /api/vouchers/ is the documented token check; writes that change the
// catalogue need manage_masteradmin, changing a voucher's state needs
// use_voucher, and issuing gifts without a sale is for staff.
var AdminRules = map[AdminOp]Requirement{
	OpPermissionsRead:       {Role: RoleUser},
	OpUserRead:              {Role: RoleUser},
	OpMediaRead:             {Role: RolePartnerMember},
	OpMediaWrite:            {Role: RolePartnerMember, Permission: PermManageMasterAdmin},
	OpGiftcardRead:          {Role: RolePartnerMember},
	OpGiftcardIssue:         {Role: RoleStaff},
	OpVoucherRead:           {Role: RolePartnerMember},
	OpVoucherUpdateState:    {Role: RolePartnerMember, Permission: PermUseVoucher},
	OpVoucherIssue:          {Role: RoleStaff},
	OpPrototypeRead:         {Role: RolePartnerMember},
	OpPrototypeWrite:        {Role: RolePartnerMember, Permission: PermManageMasterAdmin},
	OpOptionWrite:           {Role: RolePartnerMember, Permission: PermManageMasterAdmin},
	OpPartnerRead:           {Role: RolePartnerMember},
	OpCatalogueWrite:        {Role: RolePartnerMember, Permission: PermManageMasterAdmin},
	OpNetworkGiftcardUse:    {Role: RolePartnerMember, Permission: PermUseNetworkGiftcardAPI},
	OpNetworkGiftcardCreate: {Role: RolePartnerMember, Permission: PermCreateNetworkGiftcardAPI},
	OpNetworkGiftcardRead:   {Role: RolePartnerMember},
	OpNetworkGiftcardAdjust: {Role: RoleStaff},
	// The network is the marketplace's configuration.
	OpNetworkPartnerWrite: {Role: RolePartnerMember, Permission: PermAccessConfigurationMarketplaces},
	OpNetworkPartnerRead:  {Role: RolePartnerMember},
	OpNetworkVoucherRead:  {Role: RolePartnerMember},
	OpNetworkVoucherUse:   {Role: RolePartnerMember, Permission: PermUseVoucher},
	// A cart sells nothing yet: its checkout will take the payment.
	OpMultiProductCartCreate: {Role: RolePartnerMember},
	OpMultiProductCartRead:   {Role: RolePartnerMember},
	// The payment hub's partners are a marketplace's configuration, and
	// the partner's own administration.
	OpPaymentPartnerCreate:     {Role: RolePartnerMember, Permission: PermAccessConfigurationMarketplaces},
	OpPaymentPartnerRead:       {Role: RolePartnerMember},
	OpPaymentPartnerManage:     {Role: RolePartnerMember, Permission: PermAccessConfigurationMarketplaces},
	OpPaymentPartnerSelfManage: {Role: RolePartnerMember, Permission: PermManageMasterAdmin},
	// Selling is a partner's daily work; refunds are its financial
	// management's.
	OpPaymentCreate: {Role: RolePartnerMember},
	OpPaymentRead:   {Role: RolePartnerMember},
	OpPaymentUpdate: {Role: RolePartnerMember},
	OpPaymentRefund: {Role: RolePartnerMember, Permission: PermAccessFinancialOrderLines},
	// Those who read a partner or a network giftcard read its wallet.
	OpWalletRead: {Role: RolePartnerMember},
	// Those who read a partner's payments read its payouts; deciding
	// that one is paid is the platform's.
	OpPayoutRead:     {Role: RolePartnerMember},
	OpPayoutValidate: {Role: RoleStaff},
	// The shop is the partner's catalogue: written as the rest of it.
	OpEcommerceRead:  {Role: RolePartnerMember},
	OpEcommerceWrite: {Role: RolePartnerMember, Permission: PermManageMasterAdmin},
	// An endpoint receives the partner's records: choosing where they go
	// is its administrators'.
	OpWebhookManage: {Role: RolePartnerMember, Permission: PermManageMasterAdmin},
}

// Authorize returns the caller when it may run op.
// Errors: CodeUnauthenticated without a caller; CodeForbidden when the
// caller lacks the role or the permission.
func Authorize(ctx context.Context, op AdminOp) (*Caller, error) {
	c, err := CallerFrom(ctx)
	if err != nil {
		return nil, err
	}
	rule, ok := AdminRules[op]
	if !ok {
		return nil, fmt.Errorf("authorize: no rule for operation %q", op)
	}
	if c.User.IsStaff {
		return c, nil
	}
	allowed := false
	switch rule.Role {
	case RoleUser:
		allowed = true
	case RolePartnerMember:
		allowed = c.Partner != nil
	}
	if allowed && rule.Permission != "" {
		allowed = c.HasPermission(rule.Permission)
	}
	if !allowed {
		return nil, &Error{Code: CodeForbidden, Message: MsgPermissionDenied}
	}
	return c, nil
}

// Tenant is the partner an administration read is limited to: the
// caller's own, or nil for staff, who see every partner's records. A
// non-staff account without a partner sees no partner's records.
func (c *Caller) Tenant() *int64 {
	switch {
	case c.User.IsStaff:
		return nil
	case c.Partner == nil:
		none := int64(0)
		return &none
	}
	return &c.Partner.ID
}

// Sees reports whether a record of partner ownerID is visible to the
// caller. Callers answer CodeNotFound for a record it does not see.
func (c *Caller) Sees(ownerID int64) bool {
	t := c.Tenant()
	return t == nil || *t == ownerID
}

// ListTenant is the partner an administration list reads: the caller's
// tenancy narrowed by the list's partner filter (nil: none). none reports
// that the two exclude each other (a member asking for another partner's
// records): the list is then empty, without a read.
func (c *Caller) ListTenant(partner *int64) (tenant *int64, none bool) {
	t := c.Tenant()
	switch {
	case partner == nil:
		return t, false
	case t == nil:
		return partner, false
	}
	return t, *t != *partner
}

// AdminList is the read of an administration list with one ordering
// string: it authorizes op, refuses an ordering not in orderings, narrows
// the list's partner filter to the caller's tenancy and reads page with
// find, given that partner (nil: every partner's). A filter the caller's
// tenancy excludes gives an empty page without a read.
// Errors: those of Authorize; CodeInvalid on "ordering"; CodeNotFound
// "Invalid page." past the end.
func AdminList[T any](ctx context.Context, op AdminOp, partner *int64, ordering string, orderings []string,
	page PageRequest, find func(tenant *int64) ([]T, int, error)) (*Page[T], error) {
	c, err := Authorize(ctx, op)
	if err != nil {
		return nil, err
	}
	if err := checkOrdering(ordering, orderings); err != nil {
		return nil, err
	}
	tenant, none := c.ListTenant(partner)
	if none {
		return NewPage([]T{}, 0, page)
	}
	items, count, err := find(tenant)
	if err != nil {
		return nil, err
	}
	return NewPage(items, count, page)
}

// checkOrdering accepts "" (a list's default order) and the orderings of
// allowed; anything else is a field error on "ordering".
func checkOrdering(ordering string, allowed []string) error {
	if ordering == "" || slices.Contains(allowed, ordering) {
		return nil
	}
	var v Validator
	v.Add(VInvalid, "Unknown ordering: "+ordering+".", "ordering")
	return v.Err()
}

// Messages of the partner_uuid field of administration writes.
const (
	msgPartnerUUIDRequired = "This field is required: staff name the partner the record belongs to."
	msgPartnerUUIDUnknown  = "Object with uuid=%s does not exist."
)

// WritePartner is the partner an administration write creates a record
// for. A partner's member writes for its own partner: partnerUUID may be
// nil or name it, and naming another partner reads as an unknown one.
// Staff must name the partner.
// Errors: CodeInvalid on field (the input's name for the partner uuid).
func WritePartner(ctx context.Context, partners PartnerStore, c *Caller, partnerUUID *uuid.UUID, field string) (*Partner, error) {
	var v Validator
	switch {
	case partnerUUID == nil && c.Partner != nil && !c.User.IsStaff:
		return c.Partner, nil
	case partnerUUID == nil:
		v.Add(VRequired, msgPartnerUUIDRequired, field)
		return nil, v.Err()
	case c.User.IsStaff:
		p, err := partners.FindPartnerByUUID(ctx, *partnerUUID)
		if IsCode(err, CodeNotFound) {
			v.Add(VNotFound, fmt.Sprintf(msgPartnerUUIDUnknown, partnerUUID), field)
			return nil, v.Err()
		}
		return p, err
	case c.Partner != nil && c.Partner.UUID == *partnerUUID:
		return c.Partner, nil
	}
	v.Add(VNotFound, fmt.Sprintf(msgPartnerUUIDUnknown, partnerUUID), field)
	return nil, v.Err()
}
