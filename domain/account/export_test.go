package account

// Hooks for the tests of package account_test (this file is compiled only
// with the tests).

// SetPasswordCompare replaces the argon2id comparison of s's logins, so a
// test can count comparisons or hold them.
func (s *AccountService) SetPasswordCompare(f func(password, hash string) (bool, error)) {
	s.compare = f
}

// PasswordHashSlots is how many argon2id computations s runs at once.
func (s *AccountService) PasswordHashSlots() int { return s.hashSlotCount }
