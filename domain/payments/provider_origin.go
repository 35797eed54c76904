package payments

// ProviderPageOrigin is the origin of the provider's card page ("" for
// this service's own address): a page whose form is redirected there
// allows it in its CSP form-action, as browsers check redirects too.
func (s *PaymentService) ProviderPageOrigin() string { return s.provider.PageOrigin() }
