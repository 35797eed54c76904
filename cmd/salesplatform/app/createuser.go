package app

import (
	"context"
	"flag"
	"fmt"
	"io"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/persistence"
)

const createUserUsage = `usage: salesplatform createuser --username U --password P [flags]

Creates a user (and with --partner-name its partner), applying pending
migrations first, and prints the user's API token on the last line.`

// createUser is `salesplatform createuser`: it creates an account and
// prints the user's API token on the last line of stdout.
func createUser(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg Config
	var in account.NewAccountInput
	fs := flag.NewFlagSet("createuser", flag.ContinueOnError)
	bindConfig(fs, &cfg, groupDatabase|groupPasswords)
	fs.StringVar(&in.Username, "username", "", "user name (required)")
	fs.StringVar(&in.Password, "password", "", "password (required, at least 8 characters)")
	fs.StringVar(&in.Email, "email", "", "e-mail address")
	fs.StringVar(&in.PartnerName, "partner-name", "", "create a partner of this name for the user")
	fs.StringVar(&in.PartnerDomain, "partner-domain", "", "the partner's purchase site domain, e.g. shop.example.com")
	fs.BoolVar(&in.Marketplace, "marketplace", false, "the partner is a marketplace")
	fs.BoolVar(&in.Staff, "staff", false, "the user is staff")
	fs.Func("permission", "grant a permission (repeatable)", func(s string) error {
		in.Permissions = append(in.Permissions, s)
		return nil
	})
	if err := parseFlags(fs, &cfg, args, stdout, stderr, createUserUsage); err != nil {
		return err
	}
	if in.Username == "" || in.Password == "" {
		fmt.Fprintln(stderr, "createuser: --username and --password are required")
		return errUsage
	}
	db, closeDB, err := openCommandDatabase(ctx, &cfg, stderr, true)
	if err != nil {
		return err
	}
	defer closeDB()
	accounts := account.NewAccountService(persistence.NewDatabase(db), nil, cfg.PasswordHashing)
	acct, err := accounts.CreateAccount(ctx, in)
	if err != nil {
		return domain.Describe(err)
	}
	fmt.Fprintf(stdout, "created user %q (id %d)\n", acct.User.Username, acct.User.ID)
	if acct.Partner != nil {
		fmt.Fprintf(stdout, "created partner %q (uuid %s)\n", acct.Partner.Name, acct.Partner.UUID)
	}
	fmt.Fprintln(stdout, acct.Token)
	return nil
}
