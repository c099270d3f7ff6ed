-- Sessions are now stored as the SHA-256 of their cookie: rows from before hold raw tokens, which a
-- database read could use. They are removed; people sign in again once.
DELETE FROM `session`;
