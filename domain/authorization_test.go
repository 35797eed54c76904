package domain

import (
	"context"
	"testing"
)

func TestAuthorize(t *testing.T) {
	partner := &Partner{ID: 7}
	member := &Caller{User: &User{ID: 1}, Partner: partner}
	admin := &Caller{User: &User{ID: 2}, Partner: partner, Permissions: []string{PermManageMasterAdmin}}
	loner := &Caller{User: &User{ID: 3}}
	staff := &Caller{User: &User{ID: 4, IsStaff: true}}
	tests := []struct {
		name   string
		caller *Caller
		op     AdminOp
		want   Code // "" when allowed
	}{
		{"anonymous", nil, OpVoucherRead, CodeUnauthenticated},
		{"member reads", member, OpVoucherRead, ""},
		{"member without permission writes", member, OpPrototypeWrite, CodeForbidden},
		{"member with permission writes", admin, OpPrototypeWrite, ""},
		{"permission is not the one needed", admin, OpVoucherUpdateState, CodeForbidden},
		{"account without partner reads its permissions", loner, OpPermissionsRead, ""},
		{"account without partner reads vouchers", loner, OpVoucherRead, CodeForbidden},
		{"member issues", admin, OpVoucherIssue, CodeForbidden},
		{"staff issues", staff, OpVoucherIssue, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.caller != nil {
				ctx = WithCaller(ctx, tt.caller)
			}
			c, err := Authorize(ctx, tt.op)
			if got := Code(""); err != nil {
				got = ErrorCode(err)
				if got != tt.want {
					t.Fatalf("Authorize = %v, want code %q", err, tt.want)
				}
				return
			}
			if tt.want != "" || c != tt.caller {
				t.Fatalf("Authorize allowed %v, want code %q", c, tt.want)
			}
		})
	}
}

func TestCallerTenant(t *testing.T) {
	if got := (&Caller{User: &User{IsStaff: true}, Partner: &Partner{ID: 3}}).Tenant(); got != nil {
		t.Errorf("staff tenant = %d, want nil (all partners)", *got)
	}
	if got := (&Caller{User: &User{}, Partner: &Partner{ID: 3}}).Tenant(); got == nil || *got != 3 {
		t.Errorf("member tenant = %v, want 3", got)
	}
	if c := (&Caller{User: &User{}}); c.Sees(1) {
		t.Error("an account without partner sees partner 1's records")
	}
}
