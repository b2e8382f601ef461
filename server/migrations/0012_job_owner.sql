-- Job ownership: the name of the API key that submitted a job. A key without the `admin` role
-- sees and cancels only its own jobs. NULL for jobs stored before keys had names and for jobs
-- submitted while authentication is off; with keys configured, only `admin` keys see those.

ALTER TABLE jobs ADD COLUMN owner TEXT;
