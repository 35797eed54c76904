package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/persistence"
)

// createUser is `salesplatform createuser`: it creates an account and
// prints the user's API token on the last line of stdout.
func createUser(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg Config
	var in account.NewAccountInput
	fs := flag.NewFlagSet("createuser", flag.ContinueOnError)
	bindConfig(fs, &cfg)
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
	if err := parseFlags(fs, &cfg, args, stderr); err != nil {
		return err
	}
	if in.Username == "" || in.Password == "" {
		fmt.Fprintln(stderr, "createuser: --username and --password are required")
		return errUsage
	}
	log := NewLogger(stderr, cfg.LogLevel)
	db, closeDB, err := openDatabase(ctx, &cfg, log, true)
	if err != nil {
		return err
	}
	defer closeDB()
	// A fresh machine may create its first user before it ever served.
	if err := persistence.Migrate(ctx, db); err != nil {
		return err
	}
	accounts := account.NewAccountService(persistence.NewDatabase(db), nil, cfg.PasswordHashing)
	acct, err := accounts.CreateAccount(ctx, in)
	if err != nil {
		return describe(err)
	}
	fmt.Fprintf(stdout, "created user %q (id %d)\n", acct.User.Username, acct.User.ID)
	if acct.Partner != nil {
		fmt.Fprintf(stdout, "created partner %q (uuid %s)\n", acct.Partner.Name, acct.Partner.UUID)
	}
	fmt.Fprintln(stdout, acct.Token)
	return nil
}

// describe spells out a domain validation error for a terminal.
func describe(err error) error {
	de, ok := err.(*domain.Error)
	if !ok || len(de.Fields) == 0 {
		return err
	}
	msgs := make([]string, len(de.Fields))
	for i, f := range de.Fields {
		msgs[i] = domain.PathKey(f.Path) + ": " + f.Message
	}
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}
