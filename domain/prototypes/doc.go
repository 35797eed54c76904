// Package prototypes is the administration of voucher prototypes (the full
// record a partner sells), their options and option categories.
package prototypes
