package rest

import "strings"

// funnelLanguages are the checkout pages' languages, in the switcher's
// order, each named in itself.
var funnelLanguages = []struct{ Code, Name string }{
	{"en", "English"}, {"fr", "Français"}, {"es", "Español"}, {"it", "Italiano"},
	{"de", "Deutsch"}, {"nl", "Nederlands"}, {"ca", "Català"}, {"pt", "Português"},
}

// funnelTexts are the words of the checkout pages in one language. A
// text with {n}, {days}, {address} or {amount} is filled by the page
// (fill).
type funnelTexts struct {
	Checkout, Steps, Language, StepCart, StepInfo, StepPayment, StepDone string

	CartTitle, Product, UnitPrice, Quantity, LineTotal, Variant, Choose             string
	Unavailable, OnlyLeft, QuantityHint, Delivery, DeliveryEmail, DeliveryPostal    string
	DeliveryPickup, Free, NoDelivery, Update, Continue, Empty, Subtotal, BackToShop string

	InfoTitle, Buyer, FirstName, LastName, Email, Phone, Address, Street       string
	PostalCode, City, Country, CountryHint, Beneficiary, BeneficiaryHint, Back string

	PaymentTitle, Summary, Lines, DeliveryCost, Discount, GiftcardPart, ToPay string
	Codes, Coupon, Giftcard, Apply, Pay, PayNote, PaymentFailed               string

	ThanksTitle, ThanksText, OrderRef, PaidByCard, PendingTitle, PendingText, Refresh string

	NotFoundTitle, NotFoundText, OrderNotFound, NoCart          string
	ExpiredTitle, ExpiredText, Reload, Unavailable503, TryAgain string
	FixErrors                                                   string
}

// fill puts the values of pairs (name, value, …) in place of {name} in s.
func fill(s string, pairs ...string) string {
	return strings.NewReplacer(braced(pairs)...).Replace(s)
}

func braced(pairs []string) []string {
	out := make([]string, len(pairs))
	for i := range pairs {
		out[i] = pairs[i]
		if i%2 == 0 {
			out[i] = "{" + pairs[i] + "}"
		}
	}
	return out
}

// funnelTextsOf returns the pages' words in lang (English for another).
func funnelTextsOf(lang string) *funnelTexts {
	if t, ok := funnelTextsByLang[lang]; ok {
		return t
	}
	return funnelTextsByLang["en"]
}

var funnelTextsByLang = map[string]*funnelTexts{
	"en": {
		Checkout: "Checkout", Steps: "Checkout steps", Language: "Language",
		StepCart: "Cart", StepInfo: "Your details", StepPayment: "Payment", StepDone: "Confirmation",
		CartTitle: "Your cart", Product: "Product", UnitPrice: "Unit price", Quantity: "Quantity", LineTotal: "Total",
		Variant: "Variant", Choose: "Choose…",
		Unavailable: "This product is no longer available.", OnlyLeft: "Only {n} left", QuantityHint: "0 removes the product.",
		Delivery: "Delivery", DeliveryEmail: "By e-mail", DeliveryPostal: "By post, within {days} days", DeliveryPickup: "Pick-up at {address}",
		Free: "Free", NoDelivery: "This shop offers no delivery mode at the moment.",
		Update: "Update the cart", Continue: "Continue", Empty: "Your cart is empty: add at least one product to continue.",
		Subtotal: "Subtotal", BackToShop: "Back to the shop",
		InfoTitle: "Your details", Buyer: "Buyer", FirstName: "First name", LastName: "Last name", Email: "E-mail",
		Phone: "Phone", Address: "Delivery address", Street: "Street and number", PostalCode: "Postal code", City: "City",
		Country: "Country", CountryHint: "Two letters, e.g. FR", Beneficiary: "Gift recipient (optional)", BeneficiaryHint: "Leave blank if the order is for you.",
		Back:         "Back",
		PaymentTitle: "Payment", Summary: "Order summary", Lines: "Products", DeliveryCost: "Delivery", Discount: "Coupon discount",
		GiftcardPart: "Gift card", ToPay: "To pay", Codes: "Coupon and gift card", Coupon: "Coupon code", Giftcard: "Gift card code",
		Apply: "Apply", Pay: "Pay {amount}", PayNote: "You will enter your card on our payment provider's secure page.",
		PaymentFailed: "The payment failed. Your cart is kept: you can try again.",
		ThanksTitle:   "Thank you for your order", ThanksText: "Your order is paid.", OrderRef: "Order reference", PaidByCard: "Paid by card",
		PendingTitle: "Your payment is being confirmed", PendingText: "This page will refresh in a few seconds.", Refresh: "Refresh now",
		NotFoundTitle: "Cart not found", NotFoundText: "This cart has expired or does not exist. Go back to the shop to start again.",
		OrderNotFound: "This order does not exist.", NoCart: "No cart was given.",
		ExpiredTitle: "This form has expired", ExpiredText: "For your security, reload the page and send the form again.",
		Reload: "Reload the page", Unavailable503: "The shop is briefly unavailable. Please try again in a moment.",
		TryAgain: "Something went wrong. Please try again.", FixErrors: "Please correct the fields marked below.",
	},
	"fr": {
		Checkout: "Commande", Steps: "Étapes de la commande", Language: "Langue",
		StepCart: "Panier", StepInfo: "Vos coordonnées", StepPayment: "Paiement", StepDone: "Confirmation",
		CartTitle: "Votre panier", Product: "Produit", UnitPrice: "Prix unitaire", Quantity: "Quantité", LineTotal: "Total",
		Variant: "Variante", Choose: "Choisir…",
		Unavailable: "Ce produit n'est plus disponible.", OnlyLeft: "Plus que {n} en stock", QuantityHint: "0 retire le produit.",
		Delivery: "Livraison", DeliveryEmail: "Par e-mail", DeliveryPostal: "Par courrier, sous {days} jours", DeliveryPickup: "Retrait à {address}",
		Free: "Gratuit", NoDelivery: "Cette boutique ne propose aucun mode de livraison pour le moment.",
		Update: "Mettre à jour le panier", Continue: "Continuer", Empty: "Votre panier est vide : ajoutez au moins un produit pour continuer.",
		Subtotal: "Sous-total", BackToShop: "Retour à la boutique",
		InfoTitle: "Vos coordonnées", Buyer: "Acheteur", FirstName: "Prénom", LastName: "Nom", Email: "E-mail",
		Phone: "Téléphone", Address: "Adresse de livraison", Street: "Numéro et rue", PostalCode: "Code postal", City: "Ville",
		Country: "Pays", CountryHint: "Deux lettres, par ex. FR", Beneficiary: "Destinataire du cadeau (facultatif)", BeneficiaryHint: "Laissez vide si la commande est pour vous.",
		Back:         "Retour",
		PaymentTitle: "Paiement", Summary: "Récapitulatif", Lines: "Produits", DeliveryCost: "Livraison", Discount: "Réduction du code promo",
		GiftcardPart: "Carte cadeau", ToPay: "À payer", Codes: "Code promo et carte cadeau", Coupon: "Code promo", Giftcard: "Code de la carte cadeau",
		Apply: "Appliquer", Pay: "Payer {amount}", PayNote: "Vous saisirez votre carte sur la page sécurisée de notre prestataire de paiement.",
		PaymentFailed: "Le paiement a échoué. Votre panier est conservé : vous pouvez réessayer.",
		ThanksTitle:   "Merci pour votre commande", ThanksText: "Votre commande est payée.", OrderRef: "Référence de la commande", PaidByCard: "Payé par carte",
		PendingTitle: "Votre paiement est en cours de confirmation", PendingText: "Cette page s'actualisera dans quelques secondes.", Refresh: "Actualiser maintenant",
		NotFoundTitle: "Panier introuvable", NotFoundText: "Ce panier a expiré ou n'existe pas. Retournez à la boutique pour recommencer.",
		OrderNotFound: "Cette commande n'existe pas.", NoCart: "Aucun panier n'a été indiqué.",
		ExpiredTitle: "Ce formulaire a expiré", ExpiredText: "Pour votre sécurité, rechargez la page et renvoyez le formulaire.",
		Reload: "Recharger la page", Unavailable503: "La boutique est momentanément indisponible. Veuillez réessayer dans un instant.",
		TryAgain: "Une erreur s'est produite. Veuillez réessayer.", FixErrors: "Veuillez corriger les champs signalés ci-dessous.",
	},
	"es": {
		Checkout: "Pedido", Steps: "Pasos del pedido", Language: "Idioma",
		StepCart: "Carrito", StepInfo: "Sus datos", StepPayment: "Pago", StepDone: "Confirmación",
		CartTitle: "Su carrito", Product: "Producto", UnitPrice: "Precio unitario", Quantity: "Cantidad", LineTotal: "Total",
		Variant: "Variante", Choose: "Elegir…",
		Unavailable: "Este producto ya no está disponible.", OnlyLeft: "Solo quedan {n}", QuantityHint: "0 quita el producto.",
		Delivery: "Entrega", DeliveryEmail: "Por correo electrónico", DeliveryPostal: "Por correo postal, en {days} días", DeliveryPickup: "Recogida en {address}",
		Free: "Gratis", NoDelivery: "Esta tienda no ofrece ningún modo de entrega por ahora.",
		Update: "Actualizar el carrito", Continue: "Continuar", Empty: "Su carrito está vacío: añada al menos un producto para continuar.",
		Subtotal: "Subtotal", BackToShop: "Volver a la tienda",
		InfoTitle: "Sus datos", Buyer: "Comprador", FirstName: "Nombre", LastName: "Apellidos", Email: "Correo electrónico",
		Phone: "Teléfono", Address: "Dirección de entrega", Street: "Calle y número", PostalCode: "Código postal", City: "Ciudad",
		Country: "País", CountryHint: "Dos letras, p. ej. ES", Beneficiary: "Destinatario del regalo (opcional)", BeneficiaryHint: "Déjelo en blanco si el pedido es para usted.",
		Back:         "Volver",
		PaymentTitle: "Pago", Summary: "Resumen del pedido", Lines: "Productos", DeliveryCost: "Entrega", Discount: "Descuento del cupón",
		GiftcardPart: "Tarjeta regalo", ToPay: "A pagar", Codes: "Cupón y tarjeta regalo", Coupon: "Código de cupón", Giftcard: "Código de la tarjeta regalo",
		Apply: "Aplicar", Pay: "Pagar {amount}", PayNote: "Introducirá su tarjeta en la página segura de nuestro proveedor de pagos.",
		PaymentFailed: "El pago ha fallado. Su carrito se conserva: puede intentarlo de nuevo.",
		ThanksTitle:   "Gracias por su pedido", ThanksText: "Su pedido está pagado.", OrderRef: "Referencia del pedido", PaidByCard: "Pagado con tarjeta",
		PendingTitle: "Estamos confirmando su pago", PendingText: "Esta página se actualizará en unos segundos.", Refresh: "Actualizar ahora",
		NotFoundTitle: "Carrito no encontrado", NotFoundText: "Este carrito ha caducado o no existe. Vuelva a la tienda para empezar de nuevo.",
		OrderNotFound: "Este pedido no existe.", NoCart: "No se ha indicado ningún carrito.",
		ExpiredTitle: "Este formulario ha caducado", ExpiredText: "Por su seguridad, recargue la página y envíe de nuevo el formulario.",
		Reload: "Recargar la página", Unavailable503: "La tienda no está disponible por un momento. Inténtelo de nuevo enseguida.",
		TryAgain: "Se ha producido un error. Inténtelo de nuevo.", FixErrors: "Corrija los campos indicados a continuación.",
	},
	"it": {
		Checkout: "Ordine", Steps: "Passaggi dell'ordine", Language: "Lingua",
		StepCart: "Carrello", StepInfo: "I tuoi dati", StepPayment: "Pagamento", StepDone: "Conferma",
		CartTitle: "Il tuo carrello", Product: "Prodotto", UnitPrice: "Prezzo unitario", Quantity: "Quantità", LineTotal: "Totale",
		Variant: "Variante", Choose: "Scegli…",
		Unavailable: "Questo prodotto non è più disponibile.", OnlyLeft: "Solo {n} disponibili", QuantityHint: "0 rimuove il prodotto.",
		Delivery: "Consegna", DeliveryEmail: "Via e-mail", DeliveryPostal: "Per posta, entro {days} giorni", DeliveryPickup: "Ritiro presso {address}",
		Free: "Gratuita", NoDelivery: "Questo negozio non offre al momento alcuna modalità di consegna.",
		Update: "Aggiorna il carrello", Continue: "Continua", Empty: "Il carrello è vuoto: aggiungi almeno un prodotto per continuare.",
		Subtotal: "Subtotale", BackToShop: "Torna al negozio",
		InfoTitle: "I tuoi dati", Buyer: "Acquirente", FirstName: "Nome", LastName: "Cognome", Email: "E-mail",
		Phone: "Telefono", Address: "Indirizzo di consegna", Street: "Via e numero civico", PostalCode: "CAP", City: "Città",
		Country: "Paese", CountryHint: "Due lettere, ad es. IT", Beneficiary: "Destinatario del regalo (facoltativo)", BeneficiaryHint: "Lascia vuoto se l'ordine è per te.",
		Back:         "Indietro",
		PaymentTitle: "Pagamento", Summary: "Riepilogo dell'ordine", Lines: "Prodotti", DeliveryCost: "Consegna", Discount: "Sconto del coupon",
		GiftcardPart: "Carta regalo", ToPay: "Da pagare", Codes: "Coupon e carta regalo", Coupon: "Codice coupon", Giftcard: "Codice della carta regalo",
		Apply: "Applica", Pay: "Paga {amount}", PayNote: "Inserirai la carta sulla pagina sicura del nostro fornitore di pagamenti.",
		PaymentFailed: "Il pagamento non è riuscito. Il carrello è conservato: puoi riprovare.",
		ThanksTitle:   "Grazie per il tuo ordine", ThanksText: "Il tuo ordine è pagato.", OrderRef: "Riferimento dell'ordine", PaidByCard: "Pagato con carta",
		PendingTitle: "Stiamo confermando il pagamento", PendingText: "Questa pagina si aggiornerà tra pochi secondi.", Refresh: "Aggiorna ora",
		NotFoundTitle: "Carrello non trovato", NotFoundText: "Questo carrello è scaduto o non esiste. Torna al negozio per ricominciare.",
		OrderNotFound: "Questo ordine non esiste.", NoCart: "Nessun carrello indicato.",
		ExpiredTitle: "Questo modulo è scaduto", ExpiredText: "Per la tua sicurezza, ricarica la pagina e invia di nuovo il modulo.",
		Reload: "Ricarica la pagina", Unavailable503: "Il negozio è momentaneamente non disponibile. Riprova tra un attimo.",
		TryAgain: "Si è verificato un errore. Riprova.", FixErrors: "Correggi i campi indicati qui sotto.",
	},
	"de": {
		Checkout: "Bestellung", Steps: "Bestellschritte", Language: "Sprache",
		StepCart: "Warenkorb", StepInfo: "Ihre Angaben", StepPayment: "Zahlung", StepDone: "Bestätigung",
		CartTitle: "Ihr Warenkorb", Product: "Produkt", UnitPrice: "Stückpreis", Quantity: "Menge", LineTotal: "Summe",
		Variant: "Variante", Choose: "Auswählen…",
		Unavailable: "Dieses Produkt ist nicht mehr erhältlich.", OnlyLeft: "Nur noch {n} verfügbar", QuantityHint: "0 entfernt das Produkt.",
		Delivery: "Lieferung", DeliveryEmail: "Per E-Mail", DeliveryPostal: "Per Post, innerhalb von {days} Tagen", DeliveryPickup: "Abholung: {address}",
		Free: "Kostenlos", NoDelivery: "Dieser Shop bietet derzeit keine Lieferart an.",
		Update: "Warenkorb aktualisieren", Continue: "Weiter", Empty: "Ihr Warenkorb ist leer: Fügen Sie mindestens ein Produkt hinzu, um fortzufahren.",
		Subtotal: "Zwischensumme", BackToShop: "Zurück zum Shop",
		InfoTitle: "Ihre Angaben", Buyer: "Käufer", FirstName: "Vorname", LastName: "Nachname", Email: "E-Mail",
		Phone: "Telefon", Address: "Lieferadresse", Street: "Straße und Hausnummer", PostalCode: "Postleitzahl", City: "Ort",
		Country: "Land", CountryHint: "Zwei Buchstaben, z. B. DE", Beneficiary: "Beschenkte Person (optional)", BeneficiaryHint: "Leer lassen, wenn die Bestellung für Sie ist.",
		Back:         "Zurück",
		PaymentTitle: "Zahlung", Summary: "Bestellübersicht", Lines: "Produkte", DeliveryCost: "Lieferung", Discount: "Gutscheinrabatt",
		GiftcardPart: "Geschenkkarte", ToPay: "Zu zahlen", Codes: "Gutschein und Geschenkkarte", Coupon: "Gutscheincode", Giftcard: "Code der Geschenkkarte",
		Apply: "Anwenden", Pay: "{amount} bezahlen", PayNote: "Sie geben Ihre Karte auf der sicheren Seite unseres Zahlungsdienstleisters ein.",
		PaymentFailed: "Die Zahlung ist fehlgeschlagen. Ihr Warenkorb bleibt erhalten: Sie können es erneut versuchen.",
		ThanksTitle:   "Vielen Dank für Ihre Bestellung", ThanksText: "Ihre Bestellung ist bezahlt.", OrderRef: "Bestellnummer", PaidByCard: "Mit Karte bezahlt",
		PendingTitle: "Ihre Zahlung wird bestätigt", PendingText: "Diese Seite wird in wenigen Sekunden aktualisiert.", Refresh: "Jetzt aktualisieren",
		NotFoundTitle: "Warenkorb nicht gefunden", NotFoundText: "Dieser Warenkorb ist abgelaufen oder existiert nicht. Kehren Sie zum Shop zurück, um neu zu beginnen.",
		OrderNotFound: "Diese Bestellung existiert nicht.", NoCart: "Es wurde kein Warenkorb angegeben.",
		ExpiredTitle: "Dieses Formular ist abgelaufen", ExpiredText: "Laden Sie zu Ihrer Sicherheit die Seite neu und senden Sie das Formular erneut.",
		Reload: "Seite neu laden", Unavailable503: "Der Shop ist kurz nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
		TryAgain: "Etwas ist schiefgegangen. Bitte versuchen Sie es erneut.", FixErrors: "Bitte korrigieren Sie die unten markierten Felder.",
	},
	"nl": {
		Checkout: "Bestelling", Steps: "Bestelstappen", Language: "Taal",
		StepCart: "Winkelwagen", StepInfo: "Uw gegevens", StepPayment: "Betaling", StepDone: "Bevestiging",
		CartTitle: "Uw winkelwagen", Product: "Product", UnitPrice: "Stukprijs", Quantity: "Aantal", LineTotal: "Totaal",
		Variant: "Variant", Choose: "Kies…",
		Unavailable: "Dit product is niet meer beschikbaar.", OnlyLeft: "Nog maar {n} beschikbaar", QuantityHint: "0 verwijdert het product.",
		Delivery: "Levering", DeliveryEmail: "Per e-mail", DeliveryPostal: "Per post, binnen {days} dagen", DeliveryPickup: "Afhalen: {address}",
		Free: "Gratis", NoDelivery: "Deze winkel biedt momenteel geen leverwijze aan.",
		Update: "Winkelwagen bijwerken", Continue: "Verder", Empty: "Uw winkelwagen is leeg: voeg minstens één product toe om verder te gaan.",
		Subtotal: "Subtotaal", BackToShop: "Terug naar de winkel",
		InfoTitle: "Uw gegevens", Buyer: "Koper", FirstName: "Voornaam", LastName: "Achternaam", Email: "E-mail",
		Phone: "Telefoon", Address: "Afleveradres", Street: "Straat en huisnummer", PostalCode: "Postcode", City: "Plaats",
		Country: "Land", CountryHint: "Twee letters, bijv. NL", Beneficiary: "Ontvanger van het cadeau (optioneel)", BeneficiaryHint: "Laat leeg als de bestelling voor uzelf is.",
		Back:         "Terug",
		PaymentTitle: "Betaling", Summary: "Overzicht van de bestelling", Lines: "Producten", DeliveryCost: "Levering", Discount: "Korting van de kortingscode",
		GiftcardPart: "Cadeaukaart", ToPay: "Te betalen", Codes: "Kortingscode en cadeaukaart", Coupon: "Kortingscode", Giftcard: "Code van de cadeaukaart",
		Apply: "Toepassen", Pay: "{amount} betalen", PayNote: "U voert uw kaart in op de beveiligde pagina van onze betaalprovider.",
		PaymentFailed: "De betaling is mislukt. Uw winkelwagen blijft bewaard: u kunt het opnieuw proberen.",
		ThanksTitle:   "Bedankt voor uw bestelling", ThanksText: "Uw bestelling is betaald.", OrderRef: "Bestelreferentie", PaidByCard: "Betaald met kaart",
		PendingTitle: "Uw betaling wordt bevestigd", PendingText: "Deze pagina wordt over enkele seconden vernieuwd.", Refresh: "Nu vernieuwen",
		NotFoundTitle: "Winkelwagen niet gevonden", NotFoundText: "Deze winkelwagen is verlopen of bestaat niet. Ga terug naar de winkel om opnieuw te beginnen.",
		OrderNotFound: "Deze bestelling bestaat niet.", NoCart: "Er is geen winkelwagen opgegeven.",
		ExpiredTitle: "Dit formulier is verlopen", ExpiredText: "Laad voor uw veiligheid de pagina opnieuw en verstuur het formulier nogmaals.",
		Reload: "Pagina opnieuw laden", Unavailable503: "De winkel is even niet beschikbaar. Probeer het zo opnieuw.",
		TryAgain: "Er ging iets mis. Probeer het opnieuw.", FixErrors: "Verbeter de hieronder gemarkeerde velden.",
	},
	"ca": {
		Checkout: "Comanda", Steps: "Passos de la comanda", Language: "Idioma",
		StepCart: "Cistella", StepInfo: "Les vostres dades", StepPayment: "Pagament", StepDone: "Confirmació",
		CartTitle: "La vostra cistella", Product: "Producte", UnitPrice: "Preu unitari", Quantity: "Quantitat", LineTotal: "Total",
		Variant: "Variant", Choose: "Trieu…",
		Unavailable: "Aquest producte ja no està disponible.", OnlyLeft: "Només en queden {n}", QuantityHint: "0 treu el producte.",
		Delivery: "Lliurament", DeliveryEmail: "Per correu electrònic", DeliveryPostal: "Per correu postal, en {days} dies", DeliveryPickup: "Recollida a {address}",
		Free: "Gratuït", NoDelivery: "Aquesta botiga no ofereix cap mode de lliurament ara mateix.",
		Update: "Actualitza la cistella", Continue: "Continua", Empty: "La cistella és buida: afegiu-hi almenys un producte per continuar.",
		Subtotal: "Subtotal", BackToShop: "Torna a la botiga",
		InfoTitle: "Les vostres dades", Buyer: "Comprador", FirstName: "Nom", LastName: "Cognoms", Email: "Correu electrònic",
		Phone: "Telèfon", Address: "Adreça de lliurament", Street: "Carrer i número", PostalCode: "Codi postal", City: "Població",
		Country: "País", CountryHint: "Dues lletres, p. ex. ES", Beneficiary: "Destinatari del regal (opcional)", BeneficiaryHint: "Deixeu-ho en blanc si la comanda és per a vós.",
		Back:         "Enrere",
		PaymentTitle: "Pagament", Summary: "Resum de la comanda", Lines: "Productes", DeliveryCost: "Lliurament", Discount: "Descompte del cupó",
		GiftcardPart: "Targeta regal", ToPay: "A pagar", Codes: "Cupó i targeta regal", Coupon: "Codi del cupó", Giftcard: "Codi de la targeta regal",
		Apply: "Aplica", Pay: "Paga {amount}", PayNote: "Introduireu la targeta a la pàgina segura del nostre proveïdor de pagaments.",
		PaymentFailed: "El pagament ha fallat. La cistella es conserva: podeu tornar-ho a provar.",
		ThanksTitle:   "Gràcies per la vostra comanda", ThanksText: "La vostra comanda està pagada.", OrderRef: "Referència de la comanda", PaidByCard: "Pagat amb targeta",
		PendingTitle: "Estem confirmant el pagament", PendingText: "Aquesta pàgina s'actualitzarà d'aquí a uns segons.", Refresh: "Actualitza ara",
		NotFoundTitle: "No s'ha trobat la cistella", NotFoundText: "Aquesta cistella ha caducat o no existeix. Torneu a la botiga per tornar a començar.",
		OrderNotFound: "Aquesta comanda no existeix.", NoCart: "No s'ha indicat cap cistella.",
		ExpiredTitle: "Aquest formulari ha caducat", ExpiredText: "Per la vostra seguretat, torneu a carregar la pàgina i envieu de nou el formulari.",
		Reload: "Torna a carregar la pàgina", Unavailable503: "La botiga no està disponible per un moment. Torneu-ho a provar d'aquí a poc.",
		TryAgain: "S'ha produït un error. Torneu-ho a provar.", FixErrors: "Corregiu els camps indicats a continuació.",
	},
	"pt": {
		Checkout: "Encomenda", Steps: "Passos da encomenda", Language: "Idioma",
		StepCart: "Carrinho", StepInfo: "Os seus dados", StepPayment: "Pagamento", StepDone: "Confirmação",
		CartTitle: "O seu carrinho", Product: "Produto", UnitPrice: "Preço unitário", Quantity: "Quantidade", LineTotal: "Total",
		Variant: "Variante", Choose: "Escolher…",
		Unavailable: "Este produto já não está disponível.", OnlyLeft: "Só restam {n}", QuantityHint: "0 retira o produto.",
		Delivery: "Entrega", DeliveryEmail: "Por e-mail", DeliveryPostal: "Por correio, em {days} dias", DeliveryPickup: "Levantamento em {address}",
		Free: "Grátis", NoDelivery: "Esta loja não oferece nenhum modo de entrega de momento.",
		Update: "Atualizar o carrinho", Continue: "Continuar", Empty: "O seu carrinho está vazio: adicione pelo menos um produto para continuar.",
		Subtotal: "Subtotal", BackToShop: "Voltar à loja",
		InfoTitle: "Os seus dados", Buyer: "Comprador", FirstName: "Nome próprio", LastName: "Apelido", Email: "E-mail",
		Phone: "Telefone", Address: "Morada de entrega", Street: "Rua e número", PostalCode: "Código postal", City: "Localidade",
		Country: "País", CountryHint: "Duas letras, p. ex. PT", Beneficiary: "Destinatário do presente (opcional)", BeneficiaryHint: "Deixe em branco se a encomenda for para si.",
		Back:         "Voltar",
		PaymentTitle: "Pagamento", Summary: "Resumo da encomenda", Lines: "Produtos", DeliveryCost: "Entrega", Discount: "Desconto do cupão",
		GiftcardPart: "Cartão-presente", ToPay: "A pagar", Codes: "Cupão e cartão-presente", Coupon: "Código do cupão", Giftcard: "Código do cartão-presente",
		Apply: "Aplicar", Pay: "Pagar {amount}", PayNote: "Introduzirá o seu cartão na página segura do nosso prestador de pagamentos.",
		PaymentFailed: "O pagamento falhou. O seu carrinho foi guardado: pode tentar novamente.",
		ThanksTitle:   "Obrigado pela sua encomenda", ThanksText: "A sua encomenda está paga.", OrderRef: "Referência da encomenda", PaidByCard: "Pago com cartão",
		PendingTitle: "Estamos a confirmar o seu pagamento", PendingText: "Esta página será atualizada dentro de alguns segundos.", Refresh: "Atualizar agora",
		NotFoundTitle: "Carrinho não encontrado", NotFoundText: "Este carrinho expirou ou não existe. Volte à loja para recomeçar.",
		OrderNotFound: "Esta encomenda não existe.", NoCart: "Não foi indicado nenhum carrinho.",
		ExpiredTitle: "Este formulário expirou", ExpiredText: "Para sua segurança, recarregue a página e envie o formulário novamente.",
		Reload: "Recarregar a página", Unavailable503: "A loja está momentaneamente indisponível. Tente novamente dentro de instantes.",
		TryAgain: "Ocorreu um erro. Tente novamente.", FixErrors: "Corrija os campos assinalados abaixo.",
	},
}
