-- The federation queue finds the oldest ready message of one lane (received activities go ahead
-- of deliveries while the hub answers requests) without reading the rest of the queue.
CREATE INDEX IF NOT EXISTS fed_queue_lane_idx ON fed_queue (lane, ready_at, id);
