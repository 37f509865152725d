-- Insight (issue 24): first-party measurement kept only as daily counters. Every table is keyed by a UTC day
-- and a dimension and holds a count; no row stores an IP address, a user-agent, an e-mail or any visitor,
-- session or reader identifier, and no raw event is kept. Storage grows with days × paths, not with visits.
-- Rows older than 25 months are deleted by the retention job (src/server/retention.ts).

-- Page views per page and device class (by viewport width).
CREATE TABLE insight_page_views (
  day date NOT NULL,
  path text NOT NULL CHECK (char_length(path) BETWEEN 1 AND 200),
  device text NOT NULL CHECK (device IN ('phone', 'tablet', 'desktop')),
  views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
  PRIMARY KEY (day, path, device)
);

-- Entries (a page view arriving from outside the site): the referring host ('' = direct) and UTM tags ('' = none).
CREATE TABLE insight_entries (
  day date NOT NULL,
  referrer text NOT NULL CHECK (char_length(referrer) <= 100),
  utm_source text NOT NULL CHECK (char_length(utm_source) <= 60),
  utm_medium text NOT NULL CHECK (char_length(utm_medium) <= 60),
  utm_campaign text NOT NULL CHECK (char_length(utm_campaign) <= 60),
  entries integer NOT NULL DEFAULT 0 CHECK (entries >= 0),
  PRIMARY KEY (day, referrer, utm_source, utm_medium, utm_campaign)
);

-- Conversions as they happen: contact and meeting requests, sign-ups and confirmations at the function, the
-- brochure download by the beacon.
CREATE TABLE insight_conversions (
  day date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('contact', 'meeting', 'signup', 'confirmed', 'brochure')),
  conversions integer NOT NULL DEFAULT 0 CHECK (conversions >= 0),
  PRIMARY KEY (day, kind)
);

-- Site-search queries, normalised (lower case, single spaces), with the result count last seen.
CREATE TABLE insight_searches (
  day date NOT NULL,
  query text NOT NULL CHECK (char_length(query) BETWEEN 1 AND 80),
  results integer NOT NULL CHECK (results >= 0),
  searches integer NOT NULL DEFAULT 0 CHECK (searches >= 0),
  PRIMARY KEY (day, query)
);

-- Core Web Vitals as fixed histograms: `bucket` indexes the metric's bounds in src/lib/insight-vitals.ts.
CREATE TABLE insight_vitals (
  day date NOT NULL,
  path text NOT NULL CHECK (char_length(path) BETWEEN 1 AND 200),
  metric text NOT NULL CHECK (metric IN ('LCP', 'INP', 'CLS', 'FCP', 'TTFB')),
  bucket smallint NOT NULL CHECK (bucket BETWEEN 0 AND 63),
  samples integer NOT NULL DEFAULT 0 CHECK (samples >= 0),
  PRIMARY KEY (day, path, metric, bucket)
);

-- Newsletter issues: clicks per link (through the signed redirect) and unsubscribes (url '') per issue.
CREATE TABLE insight_newsletter (
  day date NOT NULL,
  campaign_id integer NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  event text NOT NULL CHECK (event IN ('click', 'unsubscribe')),
  url text NOT NULL CHECK (char_length(url) <= 2000),
  events integer NOT NULL DEFAULT 0 CHECK (events >= 0),
  PRIMARY KEY (day, campaign_id, event, url)
);
CREATE INDEX insight_newsletter_campaign_idx ON insight_newsletter (campaign_id);
