"""Debian's python3-tweepy (v1.1 API class), unchanged, against a Hearth hub: the OAuth dance (PIN
and callback), then statuses, media, timelines, retweets, favorites, direct messages, the social
graph, users, search, lists and limits. Run with /usr/bin/python3 by test/api/compat-clients*.test.ts;
argv[1] is the JSON settings; every call is reported as a JSON line (scenario_io.py)."""
import os
import sys
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import requests  # noqa: E402
import tweepy  # noqa: E402
from tweepy.parsers import JSONParser  # noqa: E402
from scenario_io import Scenario, expect, no_keyword_keys  # noqa: E402

s = Scenario()
c = s.config
base = c['base']
tag = c['tag']
bob = c['bob']
image = c['image']


class HubOAuth(tweepy.OAuth1UserHandler):
    """Tweepy's OAuth 1.0a handler, with the hub's token endpoints instead of Twitter's."""

    def _get_oauth_url(self, endpoint):
        return f'{base}/api/oauth/{endpoint}'


class PlainHttpSession(requests.Session):
    """tweepy.API builds https:// URLs from `host`; a hub reached over plain http gets http:// ones."""

    def request(self, method, url, *args, **kwargs):
        if url.startswith('https://'):
            url = 'http://' + url[len('https://'):]
        return super().request(method, url, *args, **kwargs)


def hub_api(auth):
    host = base.split('://', 1)[1] + '/api'  # tweepy adds /1.1/<endpoint>.json
    api = tweepy.API(auth, host=host, upload_host=host)
    if base.startswith('http://'):
        api.session = PlainHttpSession()
    return api


def check_user(u, screen_name):
    expect(u.screen_name == screen_name, f'screen_name {u.screen_name!r}')
    no_keyword_keys(u._json, 'user')
    return u


def check_status(st):
    no_keyword_keys(st._json, 'status')
    for key in ('entities', 'retweet_count', 'favorite_count', 'favorited', 'retweeted', 'lang'):
        expect(key in st._json, f'status has no {key}')
    return st


def indices_match(text, entity, shown):
    start, end = entity['indices']
    expect(text[start:end] == shown, f'indices {entity["indices"]} mark {text[start:end]!r}, not {shown!r}')


# --- OAuth 1.0a, PIN (out of band) -----------------------------------------------------------
pin = HubOAuth(c['pin_app']['key'], c['pin_app']['secret'], callback='oob')
url = s.step('OAuth1UserHandler.get_authorization_url [PIN]', pin.get_authorization_url, lambda u: u.split('?')[0])
answer = s.approve(url) if url else {}
s.step('OAuth1UserHandler.get_access_token [PIN]', lambda: pin.get_access_token(answer['verifier']))
api = hub_api(pin)
me = s.step('API.verify_credentials', lambda: check_user(api.verify_credentials(), 'alice'), lambda u: f'@{u.screen_name}, id {u.id}')

# --- OAuth 1.0a, callback, through oauth/authenticate ("Sign in with Twitter") ---------------
cb = HubOAuth(c['callback_app']['key'], c['callback_app']['secret'], callback=c['callback_app']['callback'])
url = s.step('OAuth1UserHandler.get_authorization_url(signin_with_twitter=True) [callback]', lambda: cb.get_authorization_url(signin_with_twitter=True), lambda u: u.split('?')[0])


def callback_token():
    answer = s.approve(url)
    query = parse_qs(urlparse(answer['redirect']).query)
    expect(answer['redirect'].startswith(c['callback_app']['callback']), 'redirected to the callback')
    expect(query['oauth_token'][0] == cb.request_token['oauth_token'], 'the callback names the request token')
    return cb.get_access_token(query['oauth_verifier'][0])


s.step('OAuth1UserHandler.get_access_token [callback]', callback_token)
s.step('API.verify_credentials [callback token]', lambda: check_user(hub_api(cb).verify_credentials(), 'alice'))

# --- Statuses ----------------------------------------------------------------------------------
text = f'{tag} says hi to @bob about #hearthtag http://example.org/{tag}'


def post_plain():
    st = check_status(api.update_status(text))
    expect(st.text == text, f'text {st.text!r}')
    indices_match(st.text, st.entities['hashtags'][0], '#hearthtag')
    indices_match(st.text, st.entities['user_mentions'][0], '@bob')
    indices_match(st.text, st.entities['urls'][0], f'http://example.org/{tag}')
    expect(st.entities['user_mentions'][0]['id'] == bob['id'], 'mention id')
    expect((st.retweet_count, st.favorite_count, st.favorited, st.retweeted) == (0, 0, False, False), 'fresh counters')
    return st


first = s.step('API.update_status', post_plain, lambda st: f'id {st.id}')


def post_reply():
    st = check_status(api.update_status(f'{tag} replies', in_reply_to_status_id=first.id))
    expect(st.in_reply_to_status_id == first.id, 'in_reply_to_status_id')
    return st


reply = s.step('API.update_status(in_reply_to_status_id)', post_reply, lambda st: f'id {st.id} -> {st.in_reply_to_status_id}')


def media_status(st, media_id=None):
    check_status(st)
    media = st.entities.get('media') or []
    expect(len(media) == 1, f'entities.media {media}')
    expect(st.extended_entities['media'] == media, 'extended_entities.media')
    m = media[0]
    for key in ('id', 'id_str', 'media_url', 'media_url_https', 'url', 'display_url', 'expanded_url', 'type', 'sizes', 'indices'):
        expect(key in m, f'media entity has no {key}')
    expect(m['type'] == 'photo' and m['media_url'].endswith('.png'), f'media {m}')
    expect(set(m['sizes']) == {'thumb', 'small', 'medium', 'large'}, 'sizes')
    if media_id is not None:
        expect(m['id'] == media_id, f'media id {m["id"]} is not the uploaded {media_id}')
    return st


simple = s.step('API.media_upload', lambda: api.media_upload(image), lambda m: f'media_id {m.media_id}')
s.step('API.update_status(media_ids) [media_upload]', lambda: media_status(api.update_status(f'{tag} with a picture', media_ids=[simple.media_id]), simple.media_id), lambda st: f'id {st.id}')
chunked = s.step('API.media_upload(chunked=True) [INIT/APPEND/FINALIZE]', lambda: api.media_upload(image, chunked=True, chunk_size=4096), lambda m: f'media_id {m.media_id}')


def upload_status():
    st = api.get_media_upload_status(chunked.media_id)
    expect(st.processing_info['state'] == 'succeeded', f'processing_info {st.processing_info}')
    return st


s.step('API.get_media_upload_status [STATUS]', upload_status, lambda m: m.processing_info['state'])
s.step('API.update_status(media_ids) [chunked upload]', lambda: media_status(api.update_status(f'{tag} chunked picture', media_ids=[chunked.media_id]), chunked.media_id))
s.step('API.update_status_with_media', lambda: media_status(api.update_status_with_media(f'{tag} update_with_media', image)), lambda st: f'id {st.id}')

# --- Timelines and single statuses -------------------------------------------------------------
ids = lambda statuses: [x.id for x in statuses]  # noqa: E731
s.step('API.home_timeline', lambda: expect(first.id in ids(api.home_timeline(count=50)), 'the post is on the home timeline'))
s.step("API.home_timeline(tweet_mode='extended')", lambda: expect(text in [x.full_text for x in api.home_timeline(count=50, tweet_mode='extended')], 'full_text'))
s.step('API.user_timeline', lambda: expect(first.id in ids(api.user_timeline(screen_name='alice', count=50)), 'the post is on the user timeline'))
s.step('API.mentions_timeline', lambda: expect(c['bob_status'] in ids(api.mentions_timeline(count=50)), "bob's mention is there"))
s.step('API.get_status', lambda: expect(check_status(api.get_status(first.id)).text == text, 'text'))
s.step('API.lookup_statuses', lambda: expect(sorted(ids(api.lookup_statuses([first.id, c['bob_status']]))) == sorted([first.id, c['bob_status']]), 'both found'))


def destroy():
    gone = api.destroy_status(reply.id)
    expect(gone.id == reply.id, 'answers the deleted status')
    try:
        api.get_status(reply.id)
    except tweepy.NotFound:
        return gone
    raise AssertionError('the status is still there')


s.step('API.destroy_status', destroy)

# --- Retweets and favorites --------------------------------------------------------------------


def retweet():
    rt = check_status(api.retweet(c['bob_status']))
    expect(rt.retweeted_status.id == c['bob_status'], 'retweeted_status')
    expect(rt.text.startswith('RT @bob: '), f'text {rt.text!r}')
    expect(rt.retweeted, 'retweeted by me')
    return rt


rt = s.step('API.retweet', retweet, lambda st: st.text)
s.step('API.get_status [retweeted]', lambda: expect((lambda st: st.retweeted and st.retweet_count >= 1)(api.get_status(c['bob_status'])), 'retweeted and counted'))
s.step('API.get_retweets', lambda: expect(rt.id in ids(api.get_retweets(c['bob_status'])), 'the retweet is listed'))
s.step('API.unretweet', lambda: expect(not api.unretweet(c['bob_status']).retweeted, 'no longer retweeted'))
s.step('API.create_favorite', lambda: expect((lambda st: st.favorited and st.favorite_count >= 1)(api.create_favorite(c['bob_status'])), 'favorited'))
s.step('API.get_favorites', lambda: expect(c['bob_status'] in ids(api.get_favorites()), 'listed'))
s.step('API.destroy_favorite', lambda: expect(not api.destroy_favorite(c['bob_status']).favorited, 'no longer favorited'))

# --- Direct messages: the events API, and the legacy one through API.request -------------------
dm_text = f'{tag} direct message, exactly this'


def send_dm():
    dm = api.send_direct_message(bob['id'], dm_text)
    data = dm.message_create
    expect(data['message_data']['text'] == dm_text, f'text {data["message_data"]["text"]!r}')
    expect(str(data['target']['recipient_id']) == str(bob['id']), 'recipient')
    return dm


dm = s.step('API.send_direct_message [events/new]', send_dm, lambda d: f'id {d.id}')
s.step('API.get_direct_messages [events/list]', lambda: expect(dm.id in [d.id for d in api.get_direct_messages()], 'listed'))
s.step('API.get_direct_message [events/show]', lambda: expect(api.get_direct_message(dm.id).message_create['message_data']['text'] == dm_text, 'text'))
s.step('API.get_direct_messages [received]', lambda: expect(any(d.message_create['sender_id'] == str(bob['id']) for d in api.get_direct_messages()), "bob's message is there"))


def delete_dm():
    api.delete_direct_message(dm.id)
    try:
        api.get_direct_message(dm.id)
    except tweepy.NotFound:
        return True
    raise AssertionError('still there')


s.step('API.delete_direct_message [events/destroy]', delete_dm)


def legacy_dm():
    sent = api.request('POST', 'direct_messages/new', post_data={'screen_name': 'bob', 'text': dm_text}, parser=JSONParser())
    expect(sent['text'] == dm_text, f'text {sent["text"]!r}')
    same = api.get_direct_message(sent['id'])
    expect(same.id == sent['id_str'], 'the events API knows it by the same id')
    return sent


s.step('API.request(direct_messages/new) [legacy]', legacy_dm, lambda d: f'id {d["id"]}')
s.step('API.request(direct_messages) [legacy inbox]', lambda: expect(any(d['sender_screen_name'] == 'bob' for d in api.request('GET', 'direct_messages', parser=JSONParser())), "bob's message"))

# --- Social graph and users --------------------------------------------------------------------
s.step('API.create_friendship', lambda: check_user(api.create_friendship(screen_name='carol'), 'carol'))


def friendship():
    source, target = api.get_friendship(source_screen_name='alice', target_screen_name='carol')
    expect(source.following and target.screen_name == 'carol', f'source {source.__dict__}')
    return source


s.step('API.get_friendship', friendship)


def lookup_friendships():
    rel = {r.screen_name: r for r in api.lookup_friendships(screen_name=['carol', 'bob'])}
    expect(rel['bob'].is_following and rel['bob'].is_followed_by, 'alice and bob follow each other')
    expect(rel['carol'].is_following or rel['carol'].is_following_requested, 'alice follows carol')
    return rel


s.step('API.lookup_friendships', lookup_friendships)
s.step('API.destroy_friendship', lambda: check_user(api.destroy_friendship(screen_name='carol'), 'carol'))
s.step('API.get_friend_ids', lambda: expect(bob['id'] in api.get_friend_ids(), 'bob'))
s.step('API.get_follower_ids', lambda: expect(bob['id'] in api.get_follower_ids(), 'bob'))
s.step('API.get_friends [friends/list]', lambda: expect('bob' in [check_user(u, u.screen_name).screen_name for u in api.get_friends()], 'bob'))
s.step('API.get_followers [followers/list]', lambda: expect('bob' in [u.screen_name for u in api.get_followers()], 'bob'))
s.step('API.get_user', lambda: check_user(api.get_user(screen_name='bob'), 'bob'))
s.step('API.lookup_users', lambda: expect([u.screen_name for u in api.lookup_users(screen_name=['bob'])] == ['bob'], 'bob'))
s.step('API.search_users', lambda: expect('bob' in [u.screen_name for u in api.search_users('bob')], 'bob'))
s.step('API.get_blocked_ids', lambda: expect(api.get_blocked_ids() == [], 'none'))
s.step('API.get_muted_ids', lambda: expect(api.get_muted_ids() == [], 'none'))

# --- Search ------------------------------------------------------------------------------------


def search():
    found = api.search_tweets(q=tag, count=50)
    expect(first.id in ids(found), 'the post is found')
    expect(found.query is not None, 'search_metadata')
    return found


s.step('API.search_tweets', search, lambda r: f'{len(r)} statuses')

# --- Lists -------------------------------------------------------------------------------------
lst = s.step('API.create_list', lambda: api.create_list(name=f'{tag} list', mode='private'), lambda l: f'id {l.id}')
s.step('API.get_lists', lambda: expect(lst.id in [x.id for x in api.get_lists()], 'listed'))
s.step('API.get_list', lambda: expect(api.get_list(list_id=lst.id).name == f'{tag} list', 'name'))
s.step('API.update_list', lambda: expect(api.update_list(list_id=lst.id, name=f'{tag} renamed').name == f'{tag} renamed', 'renamed'))
s.step('API.add_list_member', lambda: expect(api.add_list_member(list_id=lst.id, screen_name='bob').member_count == 1, 'one member'))
s.step('API.get_list_members', lambda: expect([u.screen_name for u in api.get_list_members(list_id=lst.id)] == ['bob'], 'bob'))
s.step('API.list_timeline', lambda: expect(c['bob_status'] in ids(api.list_timeline(list_id=lst.id)), "bob's status"))
s.step('API.remove_list_member', lambda: expect(api.remove_list_member(list_id=lst.id, screen_name='bob').member_count == 0, 'no member'))
s.step('API.get_list_ownerships', lambda: expect(lst.id in [x.id for x in api.get_list_ownerships()], 'owned'))
s.step('API.get_list_subscriptions', lambda: expect(list(api.get_list_subscriptions()) == [], 'none'))
s.step('API.destroy_list', lambda: expect(api.destroy_list(list_id=lst.id).id == lst.id, 'destroyed'))
s.step('API.get_lists [after destroy]', lambda: expect(lst.id not in [x.id for x in api.get_lists()], 'gone'))

# --- Limits, settings, configuration -----------------------------------------------------------
s.step('API.rate_limit_status', lambda: expect(api.rate_limit_status()['resources']['statuses']['/statuses/home_timeline']['remaining'] > 0, 'allowance'))
s.step('API.get_settings', lambda: expect(api.get_settings()['screen_name'] == 'alice', 'screen_name'))
s.step('API.request(help/configuration)', lambda: expect(api.request('GET', 'help/configuration', parser=JSONParser())['photo_sizes']['large']['w'] > 0, 'photo sizes'))

s.done()
