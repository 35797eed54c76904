// Package account signs users in (POST /api-token-auth/, createToken),
// authenticates API tokens, creates accounts (the createuser command) and
// answers the caller's permissions and partner. Passwords are argon2id
// hashes compared in bounded slots; tokens are stored as SHA-256 only.
package account
