-- Provider webhooks (issue 34): the one-time token of each signed webhook delivery that carries one
-- (Mailgun's `signature.token`), kept until its signature's window has passed. A captured delivery sent again
-- within the window finds its token here and is refused; after it, its timestamp is too old. Tokens are random
-- values of the provider's signature, never personal data.
CREATE TABLE mail_webhook_nonces (
  provider text NOT NULL
    CONSTRAINT mail_webhook_nonces_provider_check CHECK (provider IN ('ses', 'postmark', 'mailgun', 'sendgrid')),
  nonce text NOT NULL CONSTRAINT mail_webhook_nonces_nonce_check CHECK (length(nonce) BETWEEN 1 AND 200),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (provider, nonce)
);

-- Expired tokens are swept by the statement that records the next one.
CREATE INDEX mail_webhook_nonces_expires_idx ON mail_webhook_nonces (expires_at);
