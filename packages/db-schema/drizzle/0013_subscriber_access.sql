-- Mail of a password-protected page goes only to subscribers who proved its current password. Existing
-- subscribers of protected pages never did: they get no more of its mail until they subscribe again.
ALTER TABLE `page_subscriber` ADD `access_password_hash` text;
