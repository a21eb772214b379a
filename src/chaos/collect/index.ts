/** Reading a finished chaos run into the checks' input (issue 22 deliverable 2): the venue over REST, the journal file, the strategies' fills from the bot's log. */
export { collectVenue, collectVenueOrders, collectVenueTrades, type VenueCollectOptions } from './venue-state.ts';
export { collectJournal, latestBalances } from './journal-state.ts';
export { mergeStrategyFills, strategyFillsFromJournal, strategyFillsFromLog } from './strategy-fills.ts';
