#!/usr/bin/perl
# Debian's libmastodon-client-perl (Mastodon::Client 0.017), unchanged, against a Hearth hub. Run
# with /usr/bin/perl by test/clients/mastodon-perl.test.ts, in one of two modes:
#
#   login     registers an app, prints the authorization URL, reads the code the owner got on the
#             authorize page from stdin and trades it for a token.
#   scenario  with a token: reads the home timeline to its end, posts with a photo, replies to and
#             favourites a stranger's public post, follows someone, reads the notifications.
#
# Settings come from the environment (HUB_URL, and CLIENT_ID, CLIENT_SECRET, ACCESS_TOKEN, PHOTO,
# STRANGERS_POST, FOLLOW for the scenario). Every step prints one JSON line on stdout:
# {"step": name, "ok": 1, ...what it saw} or {"step": name, "ok": 0, "error": ..., "answer": ...};
# the test judges what was seen. A failed step does not stop the later ones.
use strict;
use warnings;
use v5.10.0;

use JSON::MaybeXS ();
use Mastodon::Client;
use Mastodon::Types qw( Account Status );
use Try::Tiny;

$| = 1;
my $json = JSON::MaybeXS->new( utf8 => 1, canonical => 1, allow_blessed => 1, convert_blessed => 0 );
my $mode = shift @ARGV // '';
my $client;

# Runs one step; what it returns (a hash) is reported with it, and so is what the hub answered
# when it failed.
sub step {
  my ( $name, $run ) = @_;
  my $line = try {
    { step => $name, ok => 1, %{ $run->() // {} } };
  }
  catch {
    my $error = "$_";
    $error =~ s/\s+at \S+ line \d+\b.*$//gm;
    my %line = ( step => $name, ok => 0, error => $error );
    # The last answer of the hub (HTTP::Thin keeps no request with it).
    my $res = $client && $client->latest_response;
    $line{answer} = $res->status_line . ' ' . substr( $res->decoded_content // '', 0, 300 ) if $res;
    \%line;
  };
  print $json->encode($line), "\n";
  return $line->{ok};
}

sub plain_text {
  my ($html) = @_;
  $html //= '';
  $html =~ s/<[^>]*>//g;
  $html =~ s/&#39;|&apos;/'/g;
  $html =~ s/&quot;/"/g;
  $html =~ s/&lt;/</g;
  $html =~ s/&gt;/>/g;
  $html =~ s/&amp;/&/g;
  return $html;
}

if ( $mode eq 'login' ) {
  $client = Mastodon::Client->new(
    instance => $ENV{HUB_URL},
    name     => 'Perl Mastodon::Client',
    website  => 'https://metacpan.org/dist/Mastodon-Client',
    scopes   => [qw( read write follow )],
  );
  step register => sub {
    $client->register;
    { client_id => $client->client_id, client_secret => $client->client_secret };
  } or exit 1;
  step authorization_url => sub { { url => $client->authorization_url->as_string } } or exit 1;
  my $code = <STDIN> // '';
  chomp $code;
  # The library's authorize() posts to /api/v1/oauth/token (its path joining has done so since
  # 0.016, against Mastodon as well), so the code is traded on the library's own post() with the
  # fields authorize() would send. post() asks for <instance>//oauth/token (it joins the instance,
  # '/' and the path), which Mastodon serves: its router squeezes repeated slashes.
  my $token;
  step token => sub {
    my $answer = $client->post(
      '/oauth/token' => {
        grant_type    => 'authorization_code',
        code          => $code,
        client_id     => $client->client_id,
        client_secret => $client->client_secret,
        redirect_uri  => $client->redirect_uri,
        scope         => join( ' ', sort @{ $client->scopes } ),
      }
    );
    $token = $answer->{access_token} // die 'the answer has no access_token';
    $client->access_token($token);
    { access_token => $answer->{access_token}, scope => $answer->{scope}, token_type => $answer->{token_type} };
  };
  step verify_credentials => sub {
    my $me = $client->get_account;
    { acct => $me->{acct} };
  } if $token;
  exit 0;
}

if ( $mode ne 'scenario' ) {
  print STDERR "usage: $0 login|scenario\n";
  exit 2;
}

$client = Mastodon::Client->new(
  instance      => $ENV{HUB_URL},
  name          => 'Perl Mastodon::Client',
  client_id     => $ENV{CLIENT_ID},
  client_secret => $ENV{CLIENT_SECRET},
  access_token  => $ENV{ACCESS_TOKEN},
  scopes        => [qw( read write follow )],
);

step account => sub {
  my $me = $client->get_account;
  # The library's own entity types judge the shape (it coerces answers into them when asked to).
  Account->assert_coerce( {%$me} );
  { id => $me->{id}, acct => $me->{acct} };
};

# As a reader scrolls: pages of 20 asked for with max_id = the last id seen, until a page is empty.
# A reader gives up after 10 pages (three would do).
step home => sub {
  my ( @pages, $max_id );
  my $ended = 0;
  for ( 1 .. 10 ) {
    my $page = $client->timeline( home => { limit => 20, defined $max_id ? ( max_id => $max_id ) : () } );
    if ( !@$page ) { $ended = 1; last }
    Status->assert_coerce( {%$_} ) for @$page;
    push @pages, [ map { { id => $_->{id}, text => plain_text( $_->{content} ) } } @$page ];
    $max_id = $page->[-1]{id};
  }
  { pages => \@pages, ended => $ended };
};

my $media;
step upload_media => sub {
  $media = $client->upload_media( $ENV{PHOTO}, { description => 'A loaf of rye, still warm' } );
  { id => $media->{id}, type => $media->{type}, description => $media->{description}, url => $media->{url} };
};

step post_with_photo => sub {
  die 'no media was uploaded' unless $media;
  my $status = $client->post_status( 'Fresh bread from the bakery', { media_ids => [ $media->{id} ] } );
  {
    id    => $status->{id},
    text  => plain_text( $status->{content} ),
    media => [ map { { id => $_->{id}, type => $_->{type}, url => $_->{url}, description => $_->{description} } } @{ $status->{media_attachments} } ],
  };
};

# The stranger's post, found where a user finds it: on the local timeline.
my $strangers;
step find_strangers_post => sub {
  my $public = $client->timeline( public => { local => 'true', limit => 40 } );
  ($strangers) = grep { plain_text( $_->{content} ) eq $ENV{STRANGERS_POST} } @$public;
  die "the stranger's post is not on the local timeline" unless $strangers;
  { id => $strangers->{id}, acct => $strangers->{account}{acct} };
};

step reply_to_stranger => sub {
  die "the stranger's post was not found" unless $strangers;
  my $reply = $client->post_status( "\@$strangers->{account}{acct} The one on Mill Lane is lovely", { in_reply_to_id => $strangers->{id} } );
  { id => $reply->{id}, in_reply_to_id => $reply->{in_reply_to_id}, text => plain_text( $reply->{content} ) };
};

step favourite_stranger => sub {
  die "the stranger's post was not found" unless $strangers;
  # favourite_status(), follow() and the other one-id POSTs are not defined in 0.017 (the loop that
  # should make them runs once, over a list of the lists), so those go through the library's post().
  my $status = $client->post("statuses/$strangers->{id}/favourite");
  my $again  = $client->get_status( $strangers->{id} );
  { favourited => $status->{favourited}, favourites_count => $status->{favourites_count}, favourited_on_reading => $again->{favourited} };
};

step follow => sub {
  my ($account) = grep { $_->{acct} eq $ENV{FOLLOW} } @{ $client->search_accounts( $ENV{FOLLOW} ) };
  die "$ENV{FOLLOW} is not found by search_accounts" unless $account;
  my $relationship = $client->post("accounts/$account->{id}/follow");
  my ($later) = @{ $client->relationships( $account->{id} ) };
  {
    id        => $account->{id},
    locked    => $account->{locked},
    following => $relationship->{following},
    requested => $relationship->{requested},
    later     => { following => $later->{following}, requested => $later->{requested} },
  };
};

step notifications => sub {
  my $notes = $client->notifications( { limit => 30 } );
  {
    notifications => [
      map { { type => $_->{type}, acct => $_->{account}{acct}, text => plain_text( $_->{status} && $_->{status}{content} ) } } @$notes
    ]
  };
};
