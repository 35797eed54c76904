package payments

import (
	"context"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
)

// PageLanguages are the languages of payment requests' public pages: the
// service's languages, and Polish.
var PageLanguages = append(append([]string{}, l10n.Languages...), "pl")

// PageTexts are the words of a payment request's public page in one
// language.
type PageTexts struct {
	Title       string // the page's heading
	Merchant    string // label of the partner's name
	Amount      string
	Reference   string
	Description string
	Pay         string // the button
	Secure      string // under the button: where the card is typed
	PaidTitle   string
	PaidText    string
	// What the page says when a payment could not be started.
	TryAgain      string
	TooMany       string
	NoMoreAttempt string
	Unavailable   string
}

// pageTexts are the public page's words, by language.
var pageTexts = map[string]PageTexts{
	"en": {Title: "Payment request", Merchant: "From", Amount: "Amount", Reference: "Reference",
		Description: "Description", Pay: "Pay by card", Secure: "You will type your card on our payment provider's secure page.",
		PaidTitle: "This request is paid", PaidText: "Thank you: nothing more is due.",
		TryAgain: "The payment could not be started. Please try again.", TooMany: "Too many attempts. Please wait a minute and try again.",
		NoMoreAttempt: "This request takes no more payment attempts. Please contact the merchant.",
		Unavailable:   "This merchant cannot take payments at the moment. Please contact them."},
	"fr": {Title: "Demande de paiement", Merchant: "De", Amount: "Montant", Reference: "Référence",
		Description: "Description", Pay: "Payer par carte", Secure: "Vous saisirez votre carte sur la page sécurisée de notre prestataire de paiement.",
		PaidTitle: "Cette demande est payée", PaidText: "Merci : plus rien n'est dû.",
		TryAgain: "Le paiement n'a pas pu commencer. Veuillez réessayer.", TooMany: "Trop de tentatives. Veuillez patienter une minute puis réessayer.",
		NoMoreAttempt: "Cette demande n'accepte plus de tentative de paiement. Veuillez contacter le commerçant.",
		Unavailable:   "Ce commerçant ne peut pas recevoir de paiement pour le moment. Veuillez le contacter."},
	"es": {Title: "Solicitud de pago", Merchant: "De", Amount: "Importe", Reference: "Referencia",
		Description: "Descripción", Pay: "Pagar con tarjeta", Secure: "Introducirá su tarjeta en la página segura de nuestro proveedor de pagos.",
		PaidTitle: "Esta solicitud está pagada", PaidText: "Gracias: no queda nada por pagar.",
		TryAgain: "No se pudo iniciar el pago. Inténtelo de nuevo.", TooMany: "Demasiados intentos. Espere un minuto e inténtelo de nuevo.",
		NoMoreAttempt: "Esta solicitud no admite más intentos de pago. Póngase en contacto con el comercio.",
		Unavailable:   "Este comercio no puede recibir pagos en este momento. Póngase en contacto con él."},
	"it": {Title: "Richiesta di pagamento", Merchant: "Da", Amount: "Importo", Reference: "Riferimento",
		Description: "Descrizione", Pay: "Paga con carta", Secure: "Inserirai la carta sulla pagina sicura del nostro fornitore di pagamenti.",
		PaidTitle: "Questa richiesta è pagata", PaidText: "Grazie: non è dovuto altro.",
		TryAgain: "Non è stato possibile avviare il pagamento. Riprova.", TooMany: "Troppi tentativi. Attendi un minuto e riprova.",
		NoMoreAttempt: "Questa richiesta non accetta altri tentativi di pagamento. Contatta l'esercente.",
		Unavailable:   "Questo esercente non può ricevere pagamenti al momento. Contattalo."},
	"de": {Title: "Zahlungsaufforderung", Merchant: "Von", Amount: "Betrag", Reference: "Referenz",
		Description: "Beschreibung", Pay: "Mit Karte bezahlen", Secure: "Sie geben Ihre Karte auf der sicheren Seite unseres Zahlungsdienstleisters ein.",
		PaidTitle: "Diese Aufforderung ist bezahlt", PaidText: "Vielen Dank: Es ist nichts mehr zu zahlen.",
		TryAgain: "Die Zahlung konnte nicht gestartet werden. Bitte versuchen Sie es erneut.", TooMany: "Zu viele Versuche. Bitte warten Sie eine Minute und versuchen Sie es erneut.",
		NoMoreAttempt: "Diese Aufforderung nimmt keine weiteren Zahlungsversuche an. Bitte wenden Sie sich an den Händler.",
		Unavailable:   "Dieser Händler kann derzeit keine Zahlungen annehmen. Bitte wenden Sie sich an ihn."},
	"nl": {Title: "Betaalverzoek", Merchant: "Van", Amount: "Bedrag", Reference: "Referentie",
		Description: "Omschrijving", Pay: "Betalen met kaart", Secure: "U voert uw kaart in op de beveiligde pagina van onze betaalprovider.",
		PaidTitle: "Dit verzoek is betaald", PaidText: "Bedankt: er is niets meer verschuldigd.",
		TryAgain: "De betaling kon niet worden gestart. Probeer het opnieuw.", TooMany: "Te veel pogingen. Wacht een minuut en probeer het opnieuw.",
		NoMoreAttempt: "Dit verzoek accepteert geen betaalpogingen meer. Neem contact op met de verkoper.",
		Unavailable:   "Deze verkoper kan op dit moment geen betalingen ontvangen. Neem contact met hem op."},
	"ca": {Title: "Sol·licitud de pagament", Merchant: "De", Amount: "Import", Reference: "Referència",
		Description: "Descripció", Pay: "Paga amb targeta", Secure: "Introduireu la targeta a la pàgina segura del nostre proveïdor de pagaments.",
		PaidTitle: "Aquesta sol·licitud està pagada", PaidText: "Gràcies: no queda res per pagar.",
		TryAgain: "No s'ha pogut iniciar el pagament. Torneu-ho a provar.", TooMany: "Massa intents. Espereu un minut i torneu-ho a provar.",
		NoMoreAttempt: "Aquesta sol·licitud no admet més intents de pagament. Poseu-vos en contacte amb el comerç.",
		Unavailable:   "Aquest comerç no pot rebre pagaments ara mateix. Poseu-vos-hi en contacte."},
	"pt": {Title: "Pedido de pagamento", Merchant: "De", Amount: "Montante", Reference: "Referência",
		Description: "Descrição", Pay: "Pagar com cartão", Secure: "Introduzirá o seu cartão na página segura do nosso prestador de pagamentos.",
		PaidTitle: "Este pedido está pago", PaidText: "Obrigado: nada mais é devido.",
		TryAgain: "Não foi possível iniciar o pagamento. Tente novamente.", TooMany: "Demasiadas tentativas. Aguarde um minuto e tente novamente.",
		NoMoreAttempt: "Este pedido não aceita mais tentativas de pagamento. Contacte o comerciante.",
		Unavailable:   "Este comerciante não pode receber pagamentos de momento. Contacte-o."},
	"pl": {Title: "Prośba o płatność", Merchant: "Od", Amount: "Kwota", Reference: "Numer referencyjny",
		Description: "Opis", Pay: "Zapłać kartą", Secure: "Dane karty wpiszesz na bezpiecznej stronie naszego operatora płatności.",
		PaidTitle: "Ta prośba jest opłacona", PaidText: "Dziękujemy: nic więcej nie jest należne.",
		TryAgain: "Nie udało się rozpocząć płatności. Spróbuj ponownie.", TooMany: "Zbyt wiele prób. Odczekaj minutę i spróbuj ponownie.",
		NoMoreAttempt: "Ta prośba nie przyjmuje więcej prób płatności. Skontaktuj się ze sprzedawcą.",
		Unavailable:   "Ten sprzedawca nie może teraz przyjmować płatności. Skontaktuj się z nim."},
}

// TextsOf returns the public page's words in lang (English for a
// language without them).
func TextsOf(lang string) PageTexts {
	if t, ok := pageTexts[lang]; ok {
		return t
	}
	return pageTexts["en"]
}

// RequestPage is what a payment request's public page shows.
type RequestPage struct {
	Code        string
	Language    string
	PartnerName string
	Amount      string // written as the language writes money: "12,50 €"
	Reference   string
	Description string
	Paid        bool
	Texts       PageTexts
	// ProviderOrigin is where the page's form is redirected: the origin
	// of the provider's card page ("" for this service's own address).
	ProviderOrigin string
}

// PaymentRequestPage returns the public page of the request with that
// code, in its language. It needs no caller: the code is the page's
// credential.
// Errors: CodeNotFound for an unknown code.
func (s *PaymentService) PaymentRequestPage(ctx context.Context, code string) (*RequestPage, error) {
	if domain.TextProblem(code) != "" { // names no request; the store would drop a NUL
		return nil, domain.ErrNotFound
	}
	r, err := s.uow.Stores().Requests.PaymentRequestByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	return &RequestPage{Code: r.Code, Language: r.Language, PartnerName: r.PartnerName,
		Amount: l10n.MoneyWriter(r.Amount, r.Currency)(r.Language), Reference: r.Reference, Description: r.Description,
		Paid: r.Status == RequestPaid, Texts: TextsOf(r.Language), ProviderOrigin: s.provider.PageOrigin()}, nil
}
