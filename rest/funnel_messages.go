package rest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/domain/l10n"
	"salesplatform/domain/payments"
)

// funnelRefusal is a refusal the checkout service may answer to a funnel
// page, by its English text or format (each %d or %s a value the message
// names), and its words in the pages' other languages, where {1}, {2}, …
// are the format's values in order. An "en" entry words the English page
// otherwise than the service does.
type funnelRefusal struct {
	format string
	words  map[string]string
}

// refusalRequired words the three refusals of an empty field.
var refusalRequired = map[string]string{
	"fr": "Ce champ est obligatoire.", "es": "Este campo es obligatorio.", "it": "Questo campo è obbligatorio.",
	"de": "Dieses Feld ist erforderlich.", "nl": "Dit veld is verplicht.", "ca": "Aquest camp és obligatori.",
	"pt": "Este campo é obrigatório.",
}

// funnelRefusals are the checkout's refusals a funnel page shows: the
// field rules' (domain), the checkout's, and the payment hub's.
var funnelRefusals = []funnelRefusal{
	{domain.MsgRequired, refusalRequired},
	{domain.MsgBlank, refusalRequired},
	{domain.MsgNull, refusalRequired},
	{domain.MsgEmail, map[string]string{
		"en": "Enter a valid e-mail address.",
		"fr": "Saisissez une adresse e-mail valide.", "es": "Introduzca un correo electrónico válido.", "it": "Inserisci un indirizzo e-mail valido.",
		"de": "Geben Sie eine gültige E-Mail-Adresse ein.", "nl": "Voer een geldig e-mailadres in.", "ca": "Introduïu una adreça electrònica vàlida.",
		"pt": "Introduza um endereço de e-mail válido.",
	}},
	{domain.MsgInteger, map[string]string{
		"en": "Enter a whole number.",
		"fr": "Saisissez un nombre entier.", "es": "Introduzca un número entero.", "it": "Inserisci un numero intero.",
		"de": "Geben Sie eine ganze Zahl ein.", "nl": "Voer een geheel getal in.", "ca": "Introduïu un nombre enter.",
		"pt": "Introduza um número inteiro.",
	}},
	{domain.MsgNullCharacters, map[string]string{
		"fr": "Les caractères nuls ne sont pas autorisés.", "es": "No se permiten caracteres nulos.", "it": "I caratteri nulli non sono consentiti.",
		"de": "Nullzeichen sind nicht erlaubt.", "nl": "Nultekens zijn niet toegestaan.", "ca": "No es permeten caràcters nuls.",
		"pt": "Não são permitidos caracteres nulos.",
	}},
	{domain.MsgMaxLength, map[string]string{
		"fr": "Ce champ ne doit pas dépasser {1} caractères.", "es": "Este campo no puede tener más de {1} caracteres.", "it": "Questo campo non può superare {1} caratteri.",
		"de": "Dieses Feld darf höchstens {1} Zeichen enthalten.", "nl": "Dit veld mag maximaal {1} tekens bevatten.", "ca": "Aquest camp no pot tenir més de {1} caràcters.",
		"pt": "Este campo não pode ter mais de {1} caracteres.",
	}},
	{domain.MsgTooManyElements, map[string]string{
		"fr": "Ce champ ne doit pas contenir plus de {1} éléments.", "es": "Este campo no puede contener más de {1} elementos.", "it": "Questo campo non può contenere più di {1} elementi.",
		"de": "Dieses Feld darf höchstens {1} Elemente enthalten.", "nl": "Dit veld mag maximaal {1} elementen bevatten.", "ca": "Aquest camp no pot contenir més de {1} elements.",
		"pt": "Este campo não pode conter mais de {1} elementos.",
	}},
	{domain.MsgMinZero, map[string]string{
		"fr": "Saisissez un nombre supérieur ou égal à 0.", "es": "Introduzca un número mayor o igual que 0.", "it": "Inserisci un numero maggiore o uguale a 0.",
		"de": "Geben Sie eine Zahl größer oder gleich 0 ein.", "nl": "Voer een getal groter dan of gelijk aan 0 in.", "ca": "Introduïu un nombre més gran o igual que 0.",
		"pt": "Introduza um número maior ou igual a 0.",
	}},
	{checkout.MsgMaxQuantity, map[string]string{
		"fr": "Saisissez un nombre inférieur ou égal à {1}.", "es": "Introduzca un número menor o igual que {1}.", "it": "Inserisci un numero minore o uguale a {1}.",
		"de": "Geben Sie eine Zahl kleiner oder gleich {1} ein.", "nl": "Voer een getal kleiner dan of gelijk aan {1} in.", "ca": "Introduïu un nombre més petit o igual que {1}.",
		"pt": "Introduza um número menor ou igual a {1}.",
	}},

	// Customize
	{checkout.MsgNoSuchLine, map[string]string{
		"fr": "Cette ligne ne figure pas dans le panier.", "es": "Esta línea no figura en el carrito.", "it": "Questa riga non è nel carrello.",
		"de": "Diese Position ist nicht im Warenkorb.", "nl": "Deze regel staat niet in de winkelwagen.", "ca": "Aquesta línia no és a la cistella.",
		"pt": "Esta linha não está no carrinho.",
	}},
	{checkout.MsgVariantInvalid, map[string]string{
		"fr": "Choisissez une variante valide de ce produit.", "es": "Elija una variante válida de este producto.", "it": "Scegli una variante valida di questo prodotto.",
		"de": "Wählen Sie eine gültige Variante dieses Produkts.", "nl": "Kies een geldige variant van dit product.", "ca": "Trieu una variant vàlida d'aquest producte.",
		"pt": "Escolha uma variante válida deste produto.",
	}},
	{checkout.MsgAttributeValue, map[string]string{
		"fr": "Choisissez l'une des valeurs proposées.", "es": "Elija uno de los valores propuestos.", "it": "Scegli uno dei valori proposti.",
		"de": "Wählen Sie einen der angebotenen Werte.", "nl": "Kies een van de aangeboden waarden.", "ca": "Trieu un dels valors proposats.",
		"pt": "Escolha um dos valores propostos.",
	}},
	{checkout.MsgAttributeNone, map[string]string{
		"fr": "Ce produit n'a pas cette caractéristique.", "es": "Este producto no tiene esta característica.", "it": "Questo prodotto non ha questa caratteristica.",
		"de": "Dieses Produkt hat diese Eigenschaft nicht.", "nl": "Dit product heeft deze eigenschap niet.", "ca": "Aquest producte no té aquesta característica.",
		"pt": "Este produto não tem esta característica.",
	}},
	{checkout.MsgDeliveryInvalid, map[string]string{
		"fr": "Choisissez l'un des modes de livraison proposés.", "es": "Elija uno de los modos de entrega propuestos.", "it": "Scegli una delle modalità di consegna proposte.",
		"de": "Wählen Sie eine der angebotenen Lieferarten.", "nl": "Kies een van de aangeboden leverwijzen.", "ca": "Trieu un dels modes de lliurament proposats.",
		"pt": "Escolha um dos modos de entrega propostos.",
	}},

	// Inform
	{checkout.MsgCountry, map[string]string{
		"fr": "Saisissez un code pays de deux lettres (ISO 3166-1 alpha-2).", "es": "Introduzca un código de país de dos letras (ISO 3166-1 alfa-2).",
		"it": "Inserisci un codice paese di due lettere (ISO 3166-1 alpha-2).", "de": "Geben Sie einen Ländercode aus zwei Buchstaben ein (ISO 3166-1 Alpha-2).",
		"nl": "Voer een landcode van twee letters in (ISO 3166-1 alpha-2).", "ca": "Introduïu un codi de país de dues lletres (ISO 3166-1 alfa-2).",
		"pt": "Introduza um código de país de duas letras (ISO 3166-1 alfa-2).",
	}},

	// ApplyCodes, and the codes kept that no longer apply
	{checkout.MsgCouponUnknown, map[string]string{
		"fr": "Ce code promo n'existe pas.", "es": "Este cupón no existe.", "it": "Questo coupon non esiste.",
		"de": "Dieser Gutscheincode existiert nicht.", "nl": "Deze kortingscode bestaat niet.", "ca": "Aquest cupó no existeix.",
		"pt": "Este cupão não existe.",
	}},
	{checkout.MsgCouponInactive, map[string]string{
		"fr": "Ce code promo n'est plus valable.", "es": "Este cupón ya no es válido.", "it": "Questo coupon non è più valido.",
		"de": "Dieser Gutscheincode ist nicht mehr gültig.", "nl": "Deze kortingscode is niet meer geldig.", "ca": "Aquest cupó ja no és vàlid.",
		"pt": "Este cupão já não é válido.",
	}},
	{checkout.MsgCouponDates, map[string]string{
		"fr": "Ce code promo n'est pas valable aujourd'hui.", "es": "Este cupón no es válido hoy.", "it": "Questo coupon non è valido oggi.",
		"de": "Dieser Gutscheincode ist heute nicht gültig.", "nl": "Deze kortingscode is vandaag niet geldig.", "ca": "Aquest cupó no és vàlid avui.",
		"pt": "Este cupão não é válido hoje.",
	}},
	{checkout.MsgCouponUsedUp, map[string]string{
		"fr": "Ce code promo a atteint son nombre maximal d'utilisations.", "es": "Este cupón ya se ha usado el número máximo de veces.",
		"it": "Questo coupon è già stato usato il numero massimo di volte.", "de": "Dieser Gutscheincode wurde bereits so oft wie erlaubt verwendet.",
		"nl": "Deze kortingscode is al zo vaak gebruikt als toegestaan.", "ca": "Aquest cupó ja s'ha fet servir el nombre màxim de vegades.",
		"pt": "Este cupão já foi usado o número máximo de vezes.",
	}},
	{checkout.MsgCouponProducts, map[string]string{
		"fr": "Ce code promo ne s'applique pas à ces produits.", "es": "Este cupón no se aplica a estos productos.", "it": "Questo coupon non si applica a questi prodotti.",
		"de": "Dieser Gutscheincode gilt nicht für diese Produkte.", "nl": "Deze kortingscode geldt niet voor deze producten.", "ca": "Aquest cupó no s'aplica a aquests productes.",
		"pt": "Este cupão não se aplica a estes produtos.",
	}},
	{checkout.MsgCouponMinimum, map[string]string{
		"fr": "Ce code promo s'applique à partir de {1}.", "es": "Este cupón se aplica a partir de {1}.", "it": "Questo coupon si applica a partire da {1}.",
		"de": "Dieser Gutscheincode gilt ab {1}.", "nl": "Deze kortingscode geldt vanaf {1}.", "ca": "Aquest cupó s'aplica a partir de {1}.",
		"pt": "Este cupão aplica-se a partir de {1}.",
	}},
	{checkout.MsgGiftcardUnknown, map[string]string{
		"fr": "Cette carte cadeau n'existe pas ou n'est pas acceptée ici.", "es": "Esta tarjeta regalo no existe o no se acepta aquí.",
		"it": "Questa carta regalo non esiste o non è accettata qui.", "de": "Diese Geschenkkarte existiert nicht oder wird hier nicht angenommen.",
		"nl": "Deze cadeaukaart bestaat niet of wordt hier niet aanvaard.", "ca": "Aquesta targeta regal no existeix o no s'accepta aquí.",
		"pt": "Este cartão-presente não existe ou não é aceite aqui.",
	}},
	{checkout.MsgGiftcardNotUsable, map[string]string{
		"fr": "Cette carte cadeau ne peut pas être utilisée pour le moment.", "es": "Esta tarjeta regalo no se puede usar ahora.",
		"it": "Questa carta regalo non può essere usata ora.", "de": "Diese Geschenkkarte kann derzeit nicht verwendet werden.",
		"nl": "Deze cadeaukaart kan nu niet worden gebruikt.", "ca": "Aquesta targeta regal no es pot fer servir ara.",
		"pt": "Este cartão-presente não pode ser usado agora.",
	}},
	{checkout.MsgGiftcardEmpty, map[string]string{
		"fr": "Cette carte cadeau est épuisée.", "es": "Esta tarjeta regalo no tiene saldo.", "it": "Questa carta regalo è esaurita.",
		"de": "Diese Geschenkkarte hat kein Guthaben mehr.", "nl": "Deze cadeaukaart heeft geen saldo meer.", "ca": "Aquesta targeta regal no té saldo.",
		"pt": "Este cartão-presente não tem saldo.",
	}},

	// Pay
	{checkout.MsgProductUnavailable, map[string]string{
		"fr": "Ligne {1} : ce produit n'est plus vendu.", "es": "Línea {1}: este producto ya no está a la venta.", "it": "Riga {1}: questo prodotto non è più in vendita.",
		"de": "Position {1}: Dieses Produkt wird nicht mehr verkauft.", "nl": "Regel {1}: dit product wordt niet meer verkocht.", "ca": "Línia {1}: aquest producte ja no es ven.",
		"pt": "Linha {1}: este produto já não está à venda.",
	}},
	{checkout.MsgStockShort, map[string]string{
		"fr": "Ligne {1} : plus que {2} en stock.", "es": "Línea {1}: solo quedan {2}.", "it": "Riga {1}: ne restano solo {2}.",
		"de": "Position {1}: nur noch {2} vorrätig.", "nl": "Regel {1}: nog maar {2} op voorraad.", "ca": "Línia {1}: només en queden {2}.",
		"pt": "Linha {1}: restam apenas {2}.",
	}},
	{checkout.MsgCartChanged, map[string]string{
		"fr": "Votre panier a changé : vérifiez-le et payez à nouveau.", "es": "Su carrito ha cambiado: revíselo y vuelva a pagar.",
		"it": "Il tuo carrello è cambiato: controllalo e paga di nuovo.", "de": "Ihr Warenkorb hat sich geändert: Prüfen Sie ihn und bezahlen Sie erneut.",
		"nl": "Uw winkelwagen is gewijzigd: controleer hem en betaal opnieuw.", "ca": "La vostra cistella ha canviat: reviseu-la i torneu a pagar.",
		"pt": "O seu carrinho mudou: reveja-o e pague novamente.",
	}},
	{checkout.MsgOutOfStock, map[string]string{
		"fr": "Un produit de votre panier est en rupture de stock.", "es": "Un producto de su carrito está agotado.", "it": "Un prodotto del tuo carrello è esaurito.",
		"de": "Ein Produkt in Ihrem Warenkorb ist nicht mehr vorrätig.", "nl": "Een product in uw winkelwagen is niet meer op voorraad.", "ca": "Un producte de la vostra cistella s'ha exhaurit.",
		"pt": "Um produto do seu carrinho está esgotado.",
	}},
	{checkout.MsgCartEmpty, map[string]string{
		"fr": "Votre panier est vide.", "es": "Su carrito está vacío.", "it": "Il tuo carrello è vuoto.",
		"de": "Ihr Warenkorb ist leer.", "nl": "Uw winkelwagen is leeg.", "ca": "La vostra cistella és buida.",
		"pt": "O seu carrinho está vazio.",
	}},
	{checkout.MsgChooseDelivery, map[string]string{
		"fr": "Choisissez un mode de livraison.", "es": "Elija un modo de entrega.", "it": "Scegli una modalità di consegna.",
		"de": "Wählen Sie eine Lieferart.", "nl": "Kies een leverwijze.", "ca": "Trieu un mode de lliurament.",
		"pt": "Escolha um modo de entrega.",
	}},
	{checkout.MsgInformationIncomplete, map[string]string{
		"fr": "Complétez vos coordonnées.", "es": "Complete sus datos.", "it": "Completa i tuoi dati.",
		"de": "Vervollständigen Sie Ihre Angaben.", "nl": "Vul uw gegevens aan.", "ca": "Completeu les vostres dades.",
		"pt": "Complete os seus dados.",
	}},
	{checkout.MsgPaymentStarting, map[string]string{
		"fr": "Votre paiement est en cours de lancement : réessayez dans un instant.", "es": "Su pago se está iniciando: inténtelo de nuevo en un momento.",
		"it": "Il pagamento è in fase di avvio: riprova tra un momento.", "de": "Ihre Zahlung wird gerade gestartet: Versuchen Sie es gleich noch einmal.",
		"nl": "Uw betaling wordt gestart: probeer het zo meteen opnieuw.", "ca": "El vostre pagament s'està iniciant: torneu-ho a provar d'aquí a un moment.",
		"pt": "O seu pagamento está a ser iniciado: tente novamente daqui a pouco.",
	}},
	{checkout.MsgOrderNotFound, map[string]string{
		"fr": "Commande introuvable", "es": "Pedido no encontrado", "it": "Ordine non trovato",
		"de": "Bestellung nicht gefunden", "nl": "Bestelling niet gevonden", "ca": "Comanda no trobada",
		"pt": "Encomenda não encontrada",
	}},
	// The hub's words are the partner's; the customer is told the shop
	// cannot take the payment.
	{payments.MsgPartnerCannotTakePayments, map[string]string{
		"en": "This shop cannot take payments at the moment.",
		"fr": "Cette boutique ne peut pas recevoir de paiements pour le moment.", "es": "Esta tienda no puede recibir pagos por el momento.",
		"it": "Questo negozio non può ricevere pagamenti al momento.", "de": "Dieser Shop kann derzeit keine Zahlungen annehmen.",
		"nl": "Deze winkel kan momenteel geen betalingen ontvangen.", "ca": "Aquesta botiga no pot rebre pagaments ara mateix.",
		"pt": "Esta loja não pode receber pagamentos de momento.",
	}},
	{payments.MsgCheckoutProviderFailure, map[string]string{
		"fr": "Le paiement n'a pas pu être lancé : réessayez dans un instant.", "es": "No se ha podido iniciar el pago: inténtelo de nuevo en un momento.",
		"it": "Non è stato possibile avviare il pagamento: riprova tra un momento.", "de": "Die Zahlung konnte nicht gestartet werden: Versuchen Sie es gleich noch einmal.",
		"nl": "De betaling kon niet worden gestart: probeer het zo meteen opnieuw.", "ca": "No s'ha pogut iniciar el pagament: torneu-ho a provar d'aquí a un moment.",
		"pt": "Não foi possível iniciar o pagamento: tente novamente daqui a pouco.",
	}},
}

// refusalPattern reads the values out of a message of a format.
type refusalPattern struct {
	re      *regexp.Regexp
	refusal *funnelRefusal
	english string // the format, {1}, {2}, … in place of its verbs
}

var refusalsByText, refusalPatterns = indexRefusals(funnelRefusals)

// refusalVerb is a value's place in a format.
var refusalVerb = regexp.MustCompile(`%[ds]`)

// indexRefusals indexes the refusals without values by text, and makes
// the pattern of each format: %d a whole number, %s any text.
func indexRefusals(all []funnelRefusal) (map[string]*funnelRefusal, []refusalPattern) {
	byText := map[string]*funnelRefusal{}
	var patterns []refusalPattern
	for i := range all {
		r := &all[i]
		if !refusalVerb.MatchString(r.format) {
			byText[r.format] = r
			continue
		}
		var b, en strings.Builder
		b.WriteString("^")
		last := 0
		for n, at := range refusalVerb.FindAllStringIndex(r.format, -1) {
			b.WriteString(regexp.QuoteMeta(r.format[last:at[0]]))
			en.WriteString(r.format[last:at[0]] + "{" + strconv.Itoa(n+1) + "}")
			if r.format[at[1]-1] == 'd' {
				b.WriteString(`(-?\d+)`)
			} else {
				b.WriteString(`(.+)`)
			}
			last = at[1]
		}
		b.WriteString(regexp.QuoteMeta(r.format[last:]) + "$")
		en.WriteString(r.format[last:])
		patterns = append(patterns, refusalPattern{regexp.MustCompile(b.String()), r, en.String()})
	}
	return byText, patterns
}

// refusalAmount is an amount as the service writes it in a message
// ("50.00 EUR", decimal.StringFixed and the currency's code).
var refusalAmount = regexp.MustCompile(`^(-?\d+\.\d+) ([A-Z]{3})$`)

// refusal is a message of the checkout service in lang, an amount in it
// written as the page writes amounts: as the service words it when no
// page words it otherwise.
func refusal(lang, msg string) string {
	r, values, english := refusalsByText[msg], []string(nil), msg
	if r == nil {
		for _, p := range refusalPatterns {
			if m := p.re.FindStringSubmatch(msg); m != nil {
				r, values, english = p.refusal, m[1:], p.english
				break
			}
		}
	}
	if r == nil {
		return msg
	}
	words := r.words[lang]
	if words == "" && lang == "en" {
		words = english
	}
	if words == "" {
		return msg
	}
	pairs := make([]string, 0, 2*len(values))
	for i, v := range values {
		if m := refusalAmount.FindStringSubmatch(v); m != nil {
			v = l10n.MoneyWriter(decimal.RequireFromString(m[1]), m[2])(lang)
		}
		pairs = append(pairs, strconv.Itoa(i+1), v)
	}
	return fill(words, pairs...)
}

// refusal is msg in the page's language.
func (fr *funnelRequest) refusal(msg string) string { return refusal(fr.lang, msg) }
