"""Debian's python3-twython, unchanged, against a Hearth hub: the OAuth dance (PIN and callback),
then statuses, media, timelines, retweets, favorites, direct messages, the social graph, users,
search, lists and limits. Run with /usr/bin/python3 by test/api/compat-clients*.test.ts; argv[1] is
the JSON settings; every call is reported as a JSON line (scenario_io.py)."""
import os
import sys
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import requests  # noqa: E402
from twython import Twython, TwythonError  # noqa: E402
from scenario_io import Scenario, expect, no_keyword_keys  # noqa: E402

s = Scenario()
c = s.config
base = c['base']
tag = c['tag']
bob = c['bob']
image = c['image']

TWITTER_UPLOAD = 'https://upload.twitter.com/1.1/'


class UploadHostSession(requests.Session):
    """Twython's media methods name Twitter's upload host in full; they go to the hub's API instead."""

    def request(self, method, url, *args, **kwargs):
        if url.startswith(TWITTER_UPLOAD):
            url = f'{base}/api/1.1/' + url[len(TWITTER_UPLOAD):]
        return super().request(method, url, *args, **kwargs)


class HubTwython(Twython):
    """Twython with the hub as its API host (the attributes Twython builds its URLs from)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.api_url = f'{base}/api/%s'
        self.request_token_url = self.api_url % 'oauth/request_token'
        self.access_token_url = self.api_url % 'oauth/access_token'
        self.authenticate_url = self.api_url % 'oauth/authenticate'
        session = UploadHostSession()
        session.auth = self.client.auth
        session.headers.update(self.client.headers)
        self.client = session


def check_user(u, screen_name):
    expect(u['screen_name'] == screen_name, f'screen_name {u["screen_name"]!r}')
    no_keyword_keys(u, 'user')
    return u


def check_status(st):
    no_keyword_keys(st, 'status')
    for key in ('entities', 'retweet_count', 'favorite_count', 'favorited', 'retweeted', 'lang'):
        expect(key in st, f'status has no {key}')
    return st


def indices_match(text, entity, shown):
    start, end = entity['indices']
    expect(text[start:end] == shown, f'indices {entity["indices"]} mark {text[start:end]!r}, not {shown!r}')


ids = lambda statuses: [x['id'] for x in statuses]  # noqa: E731
app_key, app_secret = c['pin_app']['key'], c['pin_app']['secret']

# --- OAuth 1.0a, PIN (out of band), through oauth/authenticate (Twython's default) ------------
tokens = s.step('Twython.get_authentication_tokens [PIN]', lambda: HubTwython(app_key, app_secret).get_authentication_tokens(callback_url='oob'), lambda t: t['auth_url'].split('?')[0])


def pin_access():
    answer = s.approve(tokens['auth_url'])
    return HubTwython(app_key, app_secret, tokens['oauth_token'], tokens['oauth_token_secret']).get_authorized_tokens(answer['verifier'])


final = s.step('Twython.get_authorized_tokens [PIN]', pin_access, lambda t: f"screen_name {t.get('screen_name')}")
tw = HubTwython(app_key, app_secret, final['oauth_token'], final['oauth_token_secret']) if final else HubTwython(app_key, app_secret)
s.step('Twython.verify_credentials', lambda: check_user(tw.verify_credentials(), 'alice'), lambda u: f'@{u["screen_name"]}, id {u["id"]}')

# --- OAuth 1.0a, callback ----------------------------------------------------------------------
cb_key, cb_secret, callback = c['callback_app']['key'], c['callback_app']['secret'], c['callback_app']['callback']
cb_tokens = s.step('Twython.get_authentication_tokens [callback]', lambda: HubTwython(cb_key, cb_secret).get_authentication_tokens(callback_url=callback), lambda t: t['auth_url'].split('?')[0])


def callback_access():
    answer = s.approve(cb_tokens['auth_url'])
    expect(answer['redirect'].startswith(callback), 'redirected to the callback')
    query = parse_qs(urlparse(answer['redirect']).query)
    expect(query['oauth_token'][0] == cb_tokens['oauth_token'], 'the callback names the request token')
    return HubTwython(cb_key, cb_secret, cb_tokens['oauth_token'], cb_tokens['oauth_token_secret']).get_authorized_tokens(query['oauth_verifier'][0])


cb_final = s.step('Twython.get_authorized_tokens [callback]', callback_access)
s.step('Twython.verify_credentials [callback token]', lambda: check_user(HubTwython(cb_key, cb_secret, cb_final['oauth_token'], cb_final['oauth_token_secret']).verify_credentials(), 'alice'))

# --- Statuses ----------------------------------------------------------------------------------
text = f'{tag} says hi to @bob about #hearthtag http://example.org/{tag}'


def post_plain():
    st = check_status(tw.update_status(status=text))
    expect(st['text'] == text, f'text {st["text"]!r}')
    indices_match(st['text'], st['entities']['hashtags'][0], '#hearthtag')
    indices_match(st['text'], st['entities']['user_mentions'][0], '@bob')
    indices_match(st['text'], st['entities']['urls'][0], f'http://example.org/{tag}')
    expect('<a href' in tw.html_for_tweet(st), 'html_for_tweet links the entities')
    return st


first = s.step('Twython.update_status', post_plain, lambda st: f'id {st["id"]}')


def post_reply():
    st = check_status(tw.update_status(status=f'{tag} replies', in_reply_to_status_id=first['id']))
    expect(st['in_reply_to_status_id'] == first['id'], 'in_reply_to_status_id')
    return st


reply = s.step('Twython.update_status(in_reply_to_status_id)', post_reply, lambda st: f'id {st["id"]} -> {st["in_reply_to_status_id"]}')


def media_status(st, media_id=None):
    check_status(st)
    media = st['entities'].get('media') or []
    expect(len(media) == 1, f'entities.media {media}')
    expect(st['extended_entities']['media'] == media, 'extended_entities.media')
    m = media[0]
    expect(m['type'] == 'photo' and m['media_url'].endswith('.png') and 'large' in m['sizes'], f'media {m}')
    if media_id is not None:
        expect(m['id'] == media_id, f'media id {m["id"]} is not the uploaded {media_id}')
    return st


with open(image, 'rb') as f:
    simple = s.step('Twython.upload_media', lambda: tw.upload_media(media=f), lambda m: f'media_id {m["media_id"]}')
s.step('Twython.update_status(media_ids) [upload_media]', lambda: media_status(tw.update_status(status=f'{tag} with a picture', media_ids=[simple['media_id']]), simple['media_id']))
with open(image, 'rb') as f:
    chunked = s.step('Twython.upload_video [INIT/APPEND/FINALIZE]', lambda: tw.upload_video(media=f, media_type='image/png', check_progress=True), lambda m: f'media_id {m["media_id"]}')
s.step('Twython.upload_media(command=STATUS) [STATUS]', lambda: expect(tw.upload_media(command='STATUS', media_id=chunked['media_id'])['processing_info']['state'] == 'succeeded', 'succeeded'))
s.step('Twython.update_status(media_ids) [chunked upload]', lambda: media_status(tw.update_status(status=f'{tag} chunked picture', media_ids=[chunked['media_id']]), chunked['media_id']))


def base64_upload():
    import base64
    with open(image, 'rb') as f:
        data = base64.b64encode(f.read()).decode()
    m = tw.upload_media(media_data=data)
    media_status(tw.update_status(status=f'{tag} base64 picture', media_ids=[m['media_id']]), m['media_id'])
    return m


s.step('Twython.upload_media(media_data) [base64]', base64_upload, lambda m: f'media_id {m["media_id"]}')
with open(image, 'rb') as f:
    s.step('Twython.update_status_with_media', lambda: media_status(tw.update_status_with_media(status=f'{tag} update_with_media', media=f)))

# --- Timelines and single statuses -------------------------------------------------------------
s.step('Twython.get_home_timeline', lambda: expect(first['id'] in ids(tw.get_home_timeline(count=50)), 'on the home timeline'))
s.step("Twython.get_home_timeline(tweet_mode='extended')", lambda: expect(text in [x['full_text'] for x in tw.get_home_timeline(count=50, tweet_mode='extended')], 'full_text'))
s.step('Twython.get_user_timeline', lambda: expect(first['id'] in ids(tw.get_user_timeline(screen_name='alice', count=50)), 'on the user timeline'))
s.step('Twython.get_mentions_timeline', lambda: expect(c['bob_status'] in ids(tw.get_mentions_timeline(count=50)), "bob's mention"))
s.step('Twython.show_status', lambda: expect(check_status(tw.show_status(id=first['id']))['text'] == text, 'text'))
s.step('Twython.lookup_status', lambda: expect(sorted(ids(tw.lookup_status(id=f"{first['id']},{c['bob_status']}"))) == sorted([first['id'], c['bob_status']]), 'both'))


def destroy():
    gone = tw.destroy_status(id=reply['id'])
    expect(gone['id'] == reply['id'], 'answers the deleted status')
    try:
        tw.show_status(id=reply['id'])
    except TwythonError as e:
        expect(e.error_code == 404, f'status {e.error_code}')
        return gone
    raise AssertionError('the status is still there')


s.step('Twython.destroy_status', destroy)

# --- Retweets and favorites --------------------------------------------------------------------


def retweet():
    rt = check_status(tw.retweet(id=c['bob_status']))
    expect(rt['retweeted_status']['id'] == c['bob_status'], 'retweeted_status')
    expect(rt['text'].startswith('RT @bob: '), f'text {rt["text"]!r}')
    return rt


rt = s.step('Twython.retweet', retweet, lambda st: st['text'])
s.step('Twython.get_retweets', lambda: expect(rt['id'] in ids(tw.get_retweets(id=c['bob_status'])), 'listed'))
s.step('Twython.post(statuses/unretweet)', lambda: expect(not tw.post(f"statuses/unretweet/{c['bob_status']}")['retweeted'], 'no longer retweeted'))
s.step('Twython.create_favorite', lambda: expect(tw.create_favorite(id=c['bob_status'])['favorited'], 'favorited'))
s.step('Twython.get_favorites', lambda: expect(c['bob_status'] in ids(tw.get_favorites()), 'listed'))
s.step('Twython.destroy_favorite', lambda: expect(not tw.destroy_favorite(id=c['bob_status'])['favorited'], 'no longer favorited'))

# --- Direct messages: the events API and the legacy one ----------------------------------------
dm_text = f'{tag} direct message, exactly this'


def send_dm():
    event = {'type': 'message_create', 'message_create': {'target': {'recipient_id': str(bob['id'])}, 'message_data': {'text': dm_text}}}
    dm = tw.send_direct_message(event=event)['event']
    expect(dm['message_create']['message_data']['text'] == dm_text, 'text')
    return dm


dm = s.step('Twython.send_direct_message [events/new]', send_dm, lambda d: f'id {d["id"]}')
s.step('Twython.get_direct_messages [events/list]', lambda: expect(dm['id'] in [e['id'] for e in tw.get_direct_messages()['events']], 'listed'))
s.step('Twython.get_direct_message [events/show]', lambda: expect(tw.get_direct_message(id=dm['id'])['event']['message_create']['message_data']['text'] == dm_text, 'text'))
s.step('Twython.destroy_direct_message [events/destroy]', lambda: tw.destroy_direct_message(id=dm['id']))


def legacy_dm():
    sent = tw.post('direct_messages/new', params={'screen_name': 'bob', 'text': dm_text})
    expect(sent['text'] == dm_text, f'text {sent["text"]!r}')
    return sent


legacy = s.step('Twython.post(direct_messages/new) [legacy]', legacy_dm, lambda d: f'id {d["id"]}')
s.step('Twython.get_sent_messages [legacy direct_messages/sent]', lambda: expect(legacy['id'] in ids(tw.get_sent_messages()), 'listed'))
s.step('Twython.get(direct_messages) [legacy inbox]', lambda: expect(any(d['sender_screen_name'] == 'bob' for d in tw.get('direct_messages')), "bob's message"))

# --- Social graph and users --------------------------------------------------------------------
s.step('Twython.create_friendship', lambda: check_user(tw.create_friendship(screen_name='carol'), 'carol'))
s.step('Twython.show_friendship', lambda: expect(tw.show_friendship(source_screen_name='alice', target_screen_name='carol')['relationship']['source']['following'], 'following'))


def lookup_friendships():
    rel = {r['screen_name']: r['connections'] for r in tw.lookup_friendships(screen_name='carol,bob')}
    expect('following' in rel['bob'] and 'followed_by' in rel['bob'], f'bob {rel["bob"]}')
    return rel


s.step('Twython.lookup_friendships', lookup_friendships, lambda r: str(r))
s.step('Twython.destroy_friendship', lambda: check_user(tw.destroy_friendship(screen_name='carol'), 'carol'))
s.step('Twython.get_friends_ids', lambda: expect(bob['id'] in tw.get_friends_ids()['ids'], 'bob'))
s.step('Twython.get_followers_ids', lambda: expect(bob['id'] in tw.get_followers_ids()['ids'], 'bob'))
s.step('Twython.get_friends_list', lambda: expect('bob' in [check_user(u, u['screen_name'])['screen_name'] for u in tw.get_friends_list()['users']], 'bob'))
s.step('Twython.get_followers_list', lambda: expect('bob' in [u['screen_name'] for u in tw.get_followers_list()['users']], 'bob'))
s.step('Twython.show_user', lambda: check_user(tw.show_user(screen_name='bob'), 'bob'))
s.step('Twython.lookup_user', lambda: expect([u['screen_name'] for u in tw.lookup_user(screen_name='bob')] == ['bob'], 'bob'))
s.step('Twython.search_users', lambda: expect('bob' in [u['screen_name'] for u in tw.search_users(q='bob')], 'bob'))
s.step('Twython.list_block_ids', lambda: expect(tw.list_block_ids()['ids'] == [], 'none'))
s.step('Twython.list_mute_ids', lambda: expect(tw.list_mute_ids()['ids'] == [], 'none'))

# --- Search ------------------------------------------------------------------------------------


def search():
    found = tw.search(q=tag, count=50)
    expect(first['id'] in ids(found['statuses']), 'found')
    expect('search_metadata' in found, 'search_metadata')
    return found


s.step('Twython.search', search, lambda r: f"{len(r['statuses'])} statuses")

# --- Lists -------------------------------------------------------------------------------------
lst = s.step('Twython.create_list', lambda: tw.create_list(name=f'{tag} list'), lambda l: f'id {l["id"]}')
s.step('Twython.show_lists [lists/list]', lambda: expect(lst['id'] in [x['id'] for x in tw.show_lists()], 'listed'))
s.step('Twython.get_specific_list [lists/show]', lambda: expect(tw.get_specific_list(list_id=lst['id'])['name'] == f'{tag} list', 'name'))
s.step('Twython.update_list', lambda: expect(tw.update_list(list_id=lst['id'], name=f'{tag} renamed')['name'] == f'{tag} renamed', 'renamed'))
s.step('Twython.add_list_member', lambda: expect(tw.add_list_member(list_id=lst['id'], screen_name='bob')['member_count'] == 1, 'one member'))
s.step('Twython.get_list_members', lambda: expect([u['screen_name'] for u in tw.get_list_members(list_id=lst['id'])['users']] == ['bob'], 'bob'))
s.step('Twython.get_list_statuses', lambda: expect(c['bob_status'] in ids(tw.get_list_statuses(list_id=lst['id'])), "bob's status"))
s.step('Twython.delete_list_member', lambda: expect(tw.delete_list_member(list_id=lst['id'], screen_name='bob')['member_count'] == 0, 'no member'))
s.step('Twython.show_owned_lists', lambda: expect(lst['id'] in [x['id'] for x in tw.show_owned_lists()['lists']], 'owned'))
s.step('Twython.get_list_subscriptions', lambda: expect(tw.get_list_subscriptions()['lists'] == [], 'none'))
s.step('Twython.delete_list', lambda: expect(tw.delete_list(list_id=lst['id'])['id'] == lst['id'], 'deleted'))

# --- Limits, settings, configuration -----------------------------------------------------------
s.step('Twython.get_application_rate_limit_status', lambda: expect(tw.get_application_rate_limit_status()['resources']['statuses']['/statuses/home_timeline']['remaining'] > 0, 'allowance'))
s.step('Twython.get_account_settings', lambda: expect(tw.get_account_settings()['screen_name'] == 'alice', 'screen_name'))
s.step('Twython.get_twitter_configuration', lambda: expect(tw.get_twitter_configuration()['photo_sizes']['large']['w'] > 0, 'photo sizes'))

s.done()
