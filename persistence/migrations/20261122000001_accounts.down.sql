DROP TABLE user_permissions;
DROP TABLE permissions;
DROP TABLE api_tokens;
DROP TABLE users;
DROP TABLE partners;
